import { describe, expect, it } from 'vitest';
import { osc52Unavailable } from '../../../src/terminal/clipboard.js';

describe('whether /copy can use OSC 52', () => {
  it('trusts terminals that accept clipboard writes by default', () => {
    for (const env of [{ TERM: 'xterm-kitty' }, { TERM_PROGRAM: 'WezTerm' }, { TERM: 'alacritty' }, { TERM: 'foot' }, { WT_SESSION: 'x' }, { TERM_PROGRAM: 'ghostty' }]) {
      expect(osc52Unavailable(env, true)).toBeUndefined();
    }
  });

  it('says why not elsewhere, and what to set if it does work', () => {
    expect(osc52Unavailable({ TERM_PROGRAM: 'Apple_Terminal' }, true)).toBe(
      'this terminal (Apple_Terminal) is not known to accept OSC 52 clipboard writes; if it does, set CHATKEEP_CLIPBOARD=osc52',
    );
    expect(osc52Unavailable({ TERM: 'xterm-kitty', TMUX: '/tmp/tmux-1/default,1,0' }, true)).toMatch(/^inside a multiplexer .*set -g set-clipboard on.*CHATKEEP_CLIPBOARD=osc52$/);
    expect(osc52Unavailable({ TERM_PROGRAM: 'iTerm.app' }, true)).toMatch(/Applications in terminal may access clipboard/);
    expect(osc52Unavailable({ TERM: 'xterm-kitty' }, false)).toBe('copying needs a terminal, and this chat runs without one');
  });

  it('lets CHATKEEP_CLIPBOARD decide', () => {
    expect(osc52Unavailable({ TERM_PROGRAM: 'Apple_Terminal', CHATKEEP_CLIPBOARD: 'osc52' }, true)).toBeUndefined();
    expect(osc52Unavailable({ TERM: 'xterm-kitty', CHATKEEP_CLIPBOARD: 'off' }, true)).toBe('CHATKEEP_CLIPBOARD=off turns the clipboard off');
  });
});
