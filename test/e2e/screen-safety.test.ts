/**
 * Every byte read from storage or a file reaches the terminal through the one neutralizer
 * (visibleText), the words of an error included: a damaged snapshot quoted in its error, a
 * damaged file given to `sessions import`, and the bidirectional controls that reorder a line
 * on screen (U+202A–202E, U+2066–2069), which are shown as visible stand-ins.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Bytes that act on a terminal: ESC c (reset), CSI 2J (clear), OSC 0 (window title), OSC 52 (clipboard), BEL. */
const HOSTILE = '\x1bc\x1b[2J\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07';
const ACTIVE = /\x1bc|\x1b\[2J|\x1b\]0;|\x1b\]52|\x07/;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

describe('bytes from storage on a terminal', () => {
  it('a damaged snapshot quoted in its error is shown inert by list, show and resume', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const chat = await runPiped([], 'one\n/save\n', { home, cwd });
    const id = /Saved (\S+) \(/.exec(chat.stderr)![1]!;
    writeFileSync(join(sessionDir(home, id)!, 'session.json'), `${HOSTILE}{"json":`);
    for (const args of [['sessions', 'list'], ['sessions', 'show', id], ['sessions', 'show', id, '--json']]) {
      const run = await runPiped(args, '', { home, cwd });
      expect(run.stdout + run.stderr).not.toMatch(ACTIVE);
    }
    const show = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(show.stderr).toContain('is damaged (session.json: not JSON (');
    expect(show.stderr).toContain('␛c');
  });

  it('a damaged file given to sessions import is named inert', async () => {
    const home = tmpHome();
    const file = join(tmpHome('chatkeep-import-'), 'export.json');
    writeFileSync(file, `${HOSTILE}not json`);
    const run = await runPiped(['sessions', 'import', file], '', { home, cwd: tmpHome('chatkeep-project-') });
    expect(run.code).not.toBe(0);
    expect(run.stderr).not.toMatch(ACTIVE);
    expect(run.stderr).toContain('␛');
  });

  it('bidirectional controls are shown as visible stand-ins by show, list, search and the Markdown export', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    // "txt.exe" reversed by a right-to-left override reads as an innocent name on screen.
    const typed = 'open invoice\u202Eexe.txt\u2066isolated\u2069 please';
    const chat = await runPiped([], `${typed}\n`, { home, cwd });
    const id = /Saved (\S+) \(/.exec(chat.stderr)![1]!;
    const runs = [['sessions', 'show', id], ['sessions', 'list'], ['sessions', 'search', 'invoice'], ['sessions', 'export', id, '--format', 'md']];
    for (const args of runs) {
      const run = await runPiped(args, '', { home, cwd });
      expect(run.code).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(BIDI);
    }
    const show = await runPiped(['sessions', 'show', id], '', { home, cwd });
    expect(show.stdout).toContain('open invoice\\u202eexe.txt\\u2066isolated\\u2069 please');
    // Stored exact: --json keeps the characters themselves.
    const json = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    expect((JSON.parse(json.stdout) as { messages: { content: string }[] }).messages[0]!.content).toBe(typed);
  });
});
