import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** Every path under `dir` with its size and mtime: equal before and after means nothing was written. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      const s = statSync(path);
      out[relative(dir, path)] = entry.isDirectory() ? 'dir' : `${s.size}:${s.mtimeMs}`;
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

describe('--no-persist', () => {
  it('chats from a script without creating the data directory, and says nothing was saved', async () => {
    const home = join(tmpHome(), 'data');
    const cwd = tmpHome('chatkeep-project-');
    const result = await runPiped(['--no-persist'], 'hello\n/save\n/sessions\n/load x\n/title scratch\n/quit\n', { home, cwd });
    expect(result.code).toBe(0);
    expect(existsSync(home)).toBe(false);
    expect(result.stdout).toBe('Echo: hello (read 1 message)\nRenamed this chat to "scratch".\n');
    const refusal = (name: string): string =>
      `/${name} needs a stored session, and this chat stores nothing (--no-persist). Start chatkeep without it to keep a chat.`;
    expect(result.stderr).toBe(
      [
        'chatkeep 0.1.0 · not saved: --no-persist writes nothing · echo (offline)',
        'Type a message, or /help for commands.',
        refusal('save'),
        refusal('sessions'),
        refusal('load'),
        'Nothing was saved (--no-persist): 2 messages discarded.',
        '',
      ].join('\n'),
    );
  });

  it('writes the file /export is asked for (the one way to keep such a chat); the redaction note claims no save', async () => {
    const home = join(tmpHome(), 'data');
    const cwd = tmpHome('chatkeep-project-');
    const key = `sk-ant-${'x1Y2z3'.repeat(5)}`;
    const result = await runPiped(['--no-persist'], `my key is ${key}\n/export md chat.md\n`, { home, cwd });
    expect(result.code).toBe(0);
    expect(existsSync(home)).toBe(false);
    expect(result.stdout).toMatch(/^Echo: my key is \[REDACTED:anthropic-key\] \(read 1 message\)\nExported \S+ \(2 messages\) as md to .*chat\.md\n$/);
    expect(readFileSync(join(cwd, 'chat.md'), 'utf8')).toContain('my key is [REDACTED:anthropic-key]');
    expect(result.stderr).toContain(
      'Replaced what looked like a secret with [REDACTED:anthropic-key]: the assistant got the placeholder, not what you typed (--no-redact keeps text as typed).\n',
    );
    expect(result.stderr).not.toMatch(/saved session|^Saved/m);
  });

  it('writes nothing into an existing data directory from a terminal: no session, no ID, no history line', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    // A stored session first, so the data directory, its project, ID registry and history exist.
    const stored = await startAtPrompt([], { home, cwd });
    await stored.run.say('kept', 'Echo: kept (read 1 message)');
    expect(await stored.run.quit()).toBe(0);
    const before = tree(home);

    const run = spawnPty(['--no-persist'], { home, cwd });
    await run.prompt();
    expect(run.screen()).toContain('chatkeep 0.1.0 · not saved: --no-persist writes nothing · echo (offline)\n');
    await run.say('scratch thought', 'Echo: scratch thought (read 1 message)');
    const from = run.screen().length;
    await run.say('/status', /System +none\n/);
    const status = run.screen().slice(from);
    expect(status).toContain('Session    not stored  "scratch thought" · 2 messages\n');
    expect(status).toContain('Stored in  nowhere: --no-persist keeps this chat in memory only\n');
    expect(status).toContain('Last save  never (--no-persist)\n');
    await run.say('/save', '/save needs a stored session, and this chat stores nothing (--no-persist).');
    // Leaving with a line typed: there is nowhere to keep it, and nothing is written.
    await run.prompt();
    run.write('never stored');
    await run.waitFor('› never stored');
    run.write('\x03');
    await run.waitFor('(To leave, press Ctrl-C again');
    await run.prompt();
    run.write('\x03');
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain('Nothing was saved (--no-persist): 2 messages discarded.\n');
    expect(run.screen()).not.toContain('Saved');
    expect(run.screen()).not.toContain('Resume with');
    expect(tree(home)).toEqual(before);
  });

  it('refuses to resume a session, since that would write to it', async () => {
    const home = tmpHome();
    const result = await runPiped(['--no-persist', '--continue'], '', { home, cwd: tmpHome('chatkeep-project-') });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'chatkeep: --no-persist writes nothing, so it cannot resume a session: drop --no-persist, or --session-id/--continue/--resume. See chatkeep --help\n',
    );
    expect(readdirSync(home)).toEqual([]);
  });
});
