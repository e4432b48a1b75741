/**
 * `/copy` writes the clipboard with OSC 52, the escape sequence that asks the terminal itself
 * to set it (so it works over SSH too). Terminals cannot be asked whether they accept it, and
 * one that does not simply ignores it, so support is decided from the environment: terminals
 * that accept it by default are recognised, `CHATKEEP_CLIPBOARD=osc52` forces it (tmux with
 * `set-clipboard on`, iTerm2 with clipboard access allowed, …) and `CHATKEEP_CLIPBOARD=off`
 * turns it off.
 */
import type { Screen } from './screen.js';

/** Longest text sent: terminals drop larger OSC 52 payloads (hterm and others cap near 100 kB of base64). */
export const MAX_CLIPBOARD_BYTES = 74_000;

/** The terminal's clipboard, if chatkeep can write it. */
export interface Clipboard {
  /** Why copying cannot work here (undefined: it can). One clause, for "Cannot copy: …". */
  readonly unavailable: string | undefined;
  /** Sends `text` to the terminal's clipboard. */
  write(text: string): void;
}

type Env = Record<string, string | undefined>;

const set = (env: Env, name: string): string | undefined => (env[name]?.trim() ? env[name]!.trim() : undefined);

/** Terminals that accept OSC 52 clipboard writes out of the box, by what they put in the environment. */
function knownTerminal(env: Env): string | undefined {
  const term = set(env, 'TERM') ?? '';
  const program = set(env, 'TERM_PROGRAM') ?? '';
  if (set(env, 'KITTY_WINDOW_ID') || term === 'xterm-kitty') return 'kitty';
  if (set(env, 'WEZTERM_PANE') || program === 'WezTerm' || term === 'wezterm') return 'WezTerm';
  if (set(env, 'ALACRITTY_WINDOW_ID') || term === 'alacritty') return 'Alacritty';
  if (set(env, 'GHOSTTY_RESOURCES_DIR') || program === 'ghostty' || term === 'xterm-ghostty') return 'Ghostty';
  if (term === 'foot' || term.startsWith('foot-')) return 'foot';
  if (set(env, 'WT_SESSION')) return 'Windows Terminal';
  return undefined;
}

/** Why OSC 52 cannot be used here, or undefined when it can. */
export function osc52Unavailable(env: Env, terminal: boolean): string | undefined {
  if (!terminal) return 'copying needs a terminal, and this chat runs without one';
  const choice = set(env, 'CHATKEEP_CLIPBOARD')?.toLowerCase();
  if (choice === 'osc52') return undefined;
  if (choice === 'off') return 'CHATKEEP_CLIPBOARD=off turns the clipboard off';
  if (set(env, 'TMUX') || set(env, 'STY')) {
    const mux = set(env, 'TMUX') ? 'tmux passes it on only with `set -g set-clipboard on`' : 'GNU screen does not pass it on';
    return `inside a multiplexer the terminal may not receive OSC 52 (${mux}); if it does, set CHATKEEP_CLIPBOARD=osc52`;
  }
  if (knownTerminal(env)) return undefined;
  if (set(env, 'TERM_PROGRAM') === 'iTerm.app') {
    return 'iTerm2 takes OSC 52 only with "Applications in terminal may access clipboard" on; turn it on, then set CHATKEEP_CLIPBOARD=osc52';
  }
  const name = set(env, 'TERM_PROGRAM') ?? set(env, 'TERM') ?? 'unknown';
  return `this terminal (${name}) is not known to accept OSC 52 clipboard writes; if it does, set CHATKEEP_CLIPBOARD=osc52`;
}

/** The clipboard of the terminal behind `screen`. */
export function createClipboard(screen: Screen, env: Env): Clipboard {
  return {
    unavailable: osc52Unavailable(env, screen.terminal),
    write(text) {
      screen.raw(`\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`);
    },
  };
}
