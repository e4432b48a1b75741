/**
 * What archived a conversation's messages is said right everywhere a person reads it: the
 * Markdown and HTML exports and `sessions show` tell messages `/compact` summarised from those
 * `/reset` cleared, and `show` of a session cleared by `/reset` says where its messages went.
 */
import { describe, expect, it } from 'vitest';
import { runPiped, savedChat } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const WHERE = 'archived in this session (--json lists them under archived)';

describe('compaction and reset, each named for what it did', () => {
  it('exports and show tell a /compact from a /reset', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    // /compact archives hello and its reply (2); /reset then clears the 4 live messages.
    const id = await savedChat('hello\nsecond\n/compact\nthird\n/reset\nfourth\n/quit\n', { home, cwd });

    const md = (await runPiped(['sessions', 'export', id, '--format', 'md'], '', { home, cwd })).stdout;
    expect(md).toContain('**Messages:** 2 (and 2 summarised by /compact and 4 cleared by /reset, below)');
    expect(md).toMatch(/## Earlier conversation 1 of 2, summarised by \/compact on \d{4}-\d\d-\d\d [\d:]+ UTC\n/);
    expect(md).toMatch(/## Earlier conversation 2 of 2, cleared by \/reset on \d{4}-\d\d-\d\d [\d:]+ UTC\n/);

    const html = (await runPiped(['sessions', 'export', id, '--format', 'html'], '', { home, cwd })).stdout;
    expect(html).toContain('2 (and 2 summarised by /compact and 4 cleared by /reset, below)');
    expect(html).toMatch(/Earlier conversation 1 of 2, summarised by \/compact on /);
    expect(html).toMatch(/Earlier conversation 2 of 2, cleared by \/reset on /);

    const show = (await runPiped(['sessions', 'show', id], '', { home, cwd })).stdout;
    expect(show).toContain(`[earlier messages: 2 summarised by /compact and 4 cleared by /reset; ${WHERE}]\n`);
  });

  it('show of a session cleared by /reset says where its messages are; a compacted one is as before', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const reset = await savedChat('hello\n/reset\nagain\n/quit\n', { home, cwd });
    const shown = (await runPiped(['sessions', 'show', reset], '', { home, cwd })).stdout;
    expect(shown).toContain(`[earlier messages: 2 cleared by /reset; ${WHERE}]\n`);
    const md = (await runPiped(['sessions', 'export', reset, '--format', 'md'], '', { home, cwd })).stdout;
    expect(md).toContain('**Messages:** 2 (and 2 cleared by /reset, below)');

    const compacted = await savedChat('hello\nsecond\n/compact\n/quit\n', { home, cwd });
    const text = (await runPiped(['sessions', 'show', compacted], '', { home, cwd })).stdout;
    expect(text).toContain(`[summary by /compact of earlier messages; 2 messages ${WHERE}]\nSummary of 2 messages: you said "hello".\n`);
    const exported = (await runPiped(['sessions', 'export', compacted, '--format', 'md'], '', { home, cwd })).stdout;
    expect(exported).toContain('**Messages:** 2 (and 2 summarised by /compact, below)');
    expect(exported).not.toContain('/reset');
  });
});
