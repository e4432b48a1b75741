import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty, startAtPrompt, type PtyRun } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Runs /status at the prompt; resolves with what it printed. */
async function status(run: PtyRun): Promise<string> {
  await run.prompt();
  const from = run.screen().length;
  run.line('/status');
  await run.waitFor(/Tokens +\S.*\n/, { from });
  return run.screen().slice(from);
}

/** `12 B`, `1.2 kB`: how /status writes a size. */
function size(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`;
}

describe('/status', () => {
  it('tells where the session lives, who holds it, the last and next save, the journal, the assistant and tokens', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt(['--autosave', '1h'], { home, cwd });
    const dir = sessionDir(home, id)!;
    await run.say('hello there', 'Echo: hello there (read 1 message)');

    let shown = await status(run);
    expect(shown).toContain(`Session    ${id}  "hello there" · 2 messages\n`);
    expect(shown).toContain(`Stored in  file store, ${dir}\n`);
    expect(shown).toMatch(new RegExp(`Lock       held by this process \\(pid ${run.pid} on ${hostname()}, since \\d\\d:\\d\\d:\\d\\d UTC\\)\\n`));
    expect(shown).toContain('Last save  no snapshot yet (every message is in the journal)\n');
    expect(shown).toMatch(/Next save  autosave in (\d+ s|\d+ min) \(\d\d:00:00 UTC\), if anything changed\n/);
    // The user's message, the reply's streamed pieces and the reply itself, at least.
    const lines = Number(/Journal    (\d+) lines not yet in a snapshot/.exec(shown)?.[1]);
    expect(lines).toBeGreaterThanOrEqual(3);
    expect(shown).toContain(`not yet in a snapshot (${join(dir, 'journal.jsonl')})\n`);
    // Every setting shows where it came from: no flag, no config, no API key.
    expect(shown).toContain('Assistant  echo (offline) (the default)\n');
    expect(shown).toContain('Tokens     8 tokens so far (2 in, 6 out)\n');

    await run.say('/save', `Saved ${id} (2 messages)`);
    shown = await status(run);
    const bytes = statSync(join(dir, 'session.json')).size;
    expect(shown).toMatch(new RegExp(`Last save  less than a minute ago by /save, took [\\d.]+ ms, ${size(bytes).replace('.', '\\.')}\\n`));
    expect(shown).toContain('Journal    0 lines not yet in a snapshot');
    expect(await run.quit()).toBe(0);

    // Resumed: the snapshot on disk is the last save, from an earlier run.
    const again = spawnPty(['--session-id', id], { home, cwd });
    await again.prompt();
    const shownAgain = await status(again);
    expect(shownAgain).toContain('Assistant  echo (offline) (kept from the session)\n');
    const after = statSync(join(dir, 'session.json')).size;
    expect(shownAgain).toContain(`Last save  less than a minute ago by leaving (exit or /load) in an earlier run, ${size(after)}\n`);
    expect(await again.quit()).toBe(0);

    const flagged = spawnPty(['--provider', 'echo'], { home, cwd });
    await flagged.prompt();
    expect(await status(flagged)).toContain('Assistant  echo (offline) (from a flag)\n');
    expect(await flagged.quit()).toBe(0);
  });

  it('prints the same facts from a script, on stdout', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const result = await runPiped(['--autosave', 'off'], 'hi\n/status\n', { home, cwd });
    expect(result.code).toBe(0);
    const id = /Saved (\S+) /.exec(result.stderr)![1]!;
    expect(result.stdout).toContain(`Session    ${id}  "hi" · 2 messages\nStored in  file store, ${sessionDir(home, id)}\n`);
    expect(result.stdout).toContain('Next save  autosave is off (/save and leaving still save)\n');
  });

  it('on a fresh fork: the last save is the fork that made it (stored as a save, which older builds read)', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run } = await startAtPrompt(['--autosave', '1h'], { home, cwd });
    await run.say('hello there', 'Echo: hello there (read 1 message)');
    await run.prompt();
    run.line('/fork');
    const fork = /Forked \S+: now in (\S+)\./.exec(await run.waitFor(/Forked \S+: now in \S+\./))![1]!;
    const shown = await status(run);
    expect(shown).toContain(`Session    ${fork}`);
    expect(shown).toMatch(/Last save  .* by the fork that made it, took /);
    expect(shown).not.toContain('recovery');
    // On disk, one of the words every build knows.
    const stored = JSON.parse(readFileSync(join(sessionDir(home, fork)!, 'session.json'), 'utf8')) as { json?: { savedBy?: string }; savedBy?: string };
    expect(stored.json?.savedBy ?? stored.savedBy).toBe('save');
    expect(await run.quit()).toBe(0);
  });
});
