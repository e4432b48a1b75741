import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { openSessions } from '../../src/index.js';

describe('piped stdin', () => {
  it('a command that never reads its input exits as usual, whatever is still being piped to it', async () => {
    // 4 MB is far more than a pipe holds: the writer meets the closed pipe (EPIPE) mid-write.
    const result = await runPiped(['--version'], 'x'.repeat(4 << 20), { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    expect(result).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it("prints only the assistant's text on stdout and the status lines on stderr", async () => {
    const result = await runPiped([], 'hi\nhow are you\n/quit\n', { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Echo: hi (read 1 message)\nEcho: how are you (read 3 messages)\n');
    const id = /· session (\S+) ·/.exec(result.stderr)?.[1];
    expect(result.stderr).toBe(
      [
        `chatkeep 0.1.0 · session ${id} · echo (offline) · autosave every 5 min`,
        'Type a message, or /help for commands.',
        'Tokens: 22 (10 in, 12 out)',
        `Saved ${id} (4 messages).`,
        `Resume with: chatkeep --session-id ${id}`,
        '',
      ].join('\n'),
    );
  });

  it("resuming a session: stdout has only this run's reply, the old transcript goes to stderr", async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const first = await runPiped([], 'first\n/quit\n', { home, cwd });
    const id = /Saved (\S+) /.exec(first.stderr)?.[1];
    // README's own example: printf 'summarise\n/quit\n' | chatkeep --session-id ID > reply.txt
    const again = await runPiped(['--session-id', id!], 'summarise\n/quit\n', { home, cwd });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('Echo: summarise (read 3 messages)\n');
    expect(again.stderr).toContain(`Resumed session ${id} (2 messages, `);
    expect(again.stderr).toContain('› first\nEcho: first (read 1 message)\n');
  });

  it('records the chosen provider even when its first request fails', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    writeFileSync(join(cwd, 'system.md'), 'Be brief.');
    // A local server URL needs no key; nothing listens there, so the first request fails.
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const run = await runPiped(['--provider', 'openai', '--model', 'tiny', '--system', 'system.md'], 'hello\n/quit\n', { home, cwd, env });
    expect(run.code).toBe(0);
    const id = /Saved (\S+) \(1 message\)\./.exec(run.stderr)?.[1];
    expect(id).toBeDefined();
    const shown = await runPiped(['sessions', 'show', id!, '--json'], '', { home, cwd, env });
    expect((JSON.parse(shown.stdout) as { provider: unknown }).provider).toEqual({ name: 'openai', model: 'tiny', source: 'flag' });
  });

  it('takes the system prompt from the config key `system` when --system is not given', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    writeFileSync(join(cwd, 'prompt.md'), 'Answer in French.');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ system: 'prompt.md' }));
    const run = await runPiped([], 'hi\n', { home, cwd });
    expect(run.code).toBe(0);
    const id = /Saved (\S+) \(2 messages\)\./.exec(run.stderr)?.[1];
    const session = await (await openSessions({ home, cwd })).read(id!);
    expect(session.systemPrompt).toEqual({
      path: join(cwd, 'prompt.md'),
      sha256: createHash('sha256').update('Answer in French.').digest('hex'),
      source: 'user',
    });
  });

  it('quits at end of input and ignores colour requests only when told', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const plain = await runPiped([], 'x\n', { home, cwd });
    expect(plain.code).toBe(0);
    expect(plain.stderr).not.toContain('\x1b[');
    expect(plain.stderr).toMatch(/Resume with: chatkeep --session-id \S+\n$/);
    const forced = await runPiped([], '/nope\n', { home, cwd, env: { FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain('\x1b[');
    const noColor = await runPiped([], '/nope\n', { home, cwd, env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(noColor.stderr).not.toContain('\x1b[');
    expect(noColor.stderr).toContain('Unknown command /nope. Type /help.\n');
  });
});

describe('signals with a pipe that stays open', () => {
  it('SIGTERM saves and exits at once, without waiting for the end of input', async () => {
    const run = spawnPiped([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    run.child.stdin.write('still typing\n');
    let seen = '';
    await new Promise<void>((resolve) =>
      run.child.stdout.on('data', (d: Buffer) => {
        seen += d.toString();
        if (seen.endsWith('(read 1 message)\n')) resolve();
      }),
    );
    run.child.kill('SIGTERM');
    // A second signal while it saves must not cut the save short.
    run.child.kill('SIGTERM');
    const result = await run.result;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Echo: still typing (read 1 message)\n');
    expect(result.stderr).toMatch(/Saved \S+ \(2 messages\)\.\nResume with: chatkeep --session-id \S+\n$/);
  });
});

describe('redaction', () => {
  it('stores secrets redacted by default and as typed with --no-redact', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { DEMO_SERVICE_TOKEN: 'tok-4f9a8b7c6d5e4f3a2b1c' };
    const redacted = await runPiped([], 'my token is tok-4f9a8b7c6d5e4f3a2b1c ok\n', { home, cwd, env });
    const plain = await runPiped(['--no-redact'], 'my token is tok-4f9a8b7c6d5e4f3a2b1c ok\n', { home, cwd, env });
    const show = async (stderr: string): Promise<string> => {
      const id = /Saved (\S+) /.exec(stderr)?.[1];
      return (await runPiped(['sessions', 'show', id!, '--json'], '', { home, cwd, env })).stdout;
    };
    const stored = await show(redacted.stderr);
    expect(stored).not.toContain('tok-4f9a8b7c6d5e4f3a2b1c');
    expect(stored).toContain('REDACTED');
    expect(await show(plain.stderr)).toContain('my token is tok-4f9a8b7c6d5e4f3a2b1c ok');
  });
});

describe('config', () => {
  it('takes the autosave schedule and provider from config.json, flags winning', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ autosave: '30s', provider: 'echo' }));
    const fromConfig = await runPiped([], '', { home, cwd });
    expect(fromConfig.stderr).toMatch(/ · echo \(offline\) · autosave every 30 s\n/);
    const fromFlag = await runPiped(['--autosave', 'off'], '', { home, cwd });
    expect(fromFlag.stderr).toMatch(/ · autosave off\n/);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ autosave: 'whenever' }));
    const bad = await runPiped([], '', { home, cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chatkeep: Bad autosave schedule `whenever`: .*\n$/);
  });
});
