import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPiped, startAtPrompt } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('autosave and interruptions', () => {
  it('--autosave 1s writes session.json while the REPL idles at the prompt', async () => {
    const home = tmpHome();
    const { run, id } = await startAtPrompt(['--autosave', '1s'], { home, cwd: tmpHome('chatkeep-project-') });
    expect(run.screen()).toContain('autosave every');
    await run.say('keep this', 'Echo: keep this (read 1 message)');
    // Wait for a snapshot that holds the reply (the journal has it already; only a save writes session.json).
    const snapshot = (): string => {
      const file = join(sessionDir(home, id) ?? home, 'session.json');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    };
    // Nothing typed from here on: only the timer can write the snapshot.
    const deadline = Date.now() + 15_000;
    while (!snapshot().includes('Echo: keep this (read 1 message)') && Date.now() < deadline) await sleep(100);
    expect(snapshot()).toContain('Echo: keep this (read 1 message)');
    expect(await run.quit()).toBe(0);
  });

  it('Ctrl-C during a slow reply stops it and keeps the partial text marked interrupted', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd, env: { CHATKEEP_ECHO_DELAY_MS: '200' } });
    await run.say('alpha beta gamma delta epsilon zeta eta theta', 'Echo: alpha ');
    run.write('\x03');
    await run.waitFor('[interrupted]');
    expect(await run.quit()).toBe(0);

    const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    const [user, reply] = (JSON.parse(shown.stdout) as { messages: { role: string; content: string; interrupted?: boolean }[] }).messages;
    expect(user).toMatchObject({ role: 'user', content: 'alpha beta gamma delta epsilon zeta eta theta' });
    expect(reply?.interrupted).toBe(true);
    expect(reply?.content.startsWith('Echo: alpha ')).toBe(true);
    expect(reply?.content).not.toContain('(read 1 message)');
    expect(run.screen()).toContain(`${reply?.content.trimEnd()} [interrupted]`);
  });

  it('SIGTERM saves and prints the way back', async () => {
    const { run, id } = await startAtPrompt([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    await run.say('hi', 'Echo: hi');
    process.kill(run.pid, 'SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (2 messages).\nResume with: chatkeep --session-id ${id}\n`);
  });
});
