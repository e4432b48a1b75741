/**
 * `chatkeep -p PROMPT` and `chatkeep "PROMPT"`: one answer, then exit 0, as a script or a
 * person in a hurry wants it. The reply alone on stdout, plain; the way back on stderr; the
 * session stored like any other.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPiped, spawnPty } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

async function stored(id: string, home: string, cwd: string): Promise<{ role: string; content: string }[]> {
  const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
  expect(shown.code, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { messages: { role: string; content: string }[] }).messages.map(({ role, content }) => ({ role, content }));
}

describe('chatkeep -p', () => {
  it('answers once on stdout, saves the session and prints the way back on stderr', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = await runPiped(['-p', 'what is 2+2'], '', { home, cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Echo: what is 2+2 (read 1 message)\n');
    const id = /^Saved (\S+) \(2 messages\)\.$/m.exec(run.stderr)?.[1];
    expect(id, run.stderr).toBeDefined();
    expect(run.stderr).toContain(`Resume with: chatkeep --session-id ${id}\n`);
    expect(run.stderr).not.toContain('Type a message');
    expect(await stored(id!, home, cwd)).toEqual([
      { role: 'user', content: 'what is 2+2' },
      { role: 'assistant', content: 'Echo: what is 2+2 (read 1 message)' },
    ]);

    // The way back runs as printed: with -c, a second question goes to the same session.
    const again = await runPiped(['-c', '-p', 'and 3+3'], '', { home, cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Echo: and 3+3 (read 3 messages)\n');
    expect(again.stderr).toContain(`Saved ${id} (4 messages).`);
  });

  it('sends what is piped in after the prompt, as one message', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = await runPiped(['-p', 'summarise'], 'first line of context\nsecond line\n', { home, cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Echo: summarise\n\nfirst line of context\nsecond line (read 1 message)\n');
    const id = /Saved (\S+) \(2 messages\)/.exec(run.stderr)![1]!;
    expect((await stored(id, home, cwd))[0]).toEqual({ role: 'user', content: 'summarise\n\nfirst line of context\nsecond line' });
  });

  it('takes a quoted prompt as the only argument, at a terminal too: the reply plain, no spinner, no banner', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = spawnPty(['what is 2+2'], { home, cwd, env: { CHATKEEP_ECHO_DELAY_MS: '50' } });
    expect(await run.exited).toBe(0);
    const screen = run.screen();
    expect(screen).toMatch(/^Echo: what is 2\+2 \(read 1 message\)\n/);
    expect(screen).toMatch(/Saved \S+ \(2 messages\)\.\nResume with: chatkeep --session-id \S+\n/);
    expect(screen).not.toContain('Type a message');
    // The reply itself carries no escape codes (colour, spinner frames, cursor moves).
    const output = run.output();
    expect(output.slice(0, output.indexOf('(read 1 message)'))).toBe('Echo: what is 2+2 ');
  });

  it('stops on Ctrl-C (SIGINT): what arrived is stored, marked interrupted, and the exit code says so', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = spawnPiped(['-p', 'alpha beta gamma delta epsilon zeta eta theta'], { home, cwd, env: { CHATKEEP_ECHO_DELAY_MS: '200' } });
    run.child.stdin.end();
    let out = '';
    await new Promise<void>((resolve) => {
      run.child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('alpha')) resolve();
      });
    });
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).toMatch(/^Echo: alpha (\S+ )*\[interrupted\]\n$/);
    const id = /Saved (\S+) \(2 messages\)/.exec(result.stderr)![1]!;
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    const reply = (JSON.parse(shown.stdout) as { messages: { content: string; interrupted?: boolean }[] }).messages[1];
    expect(reply?.interrupted).toBe(true);
    expect(reply?.content).not.toContain('(read 1 message)');
  });

  it('refuses what is not one prompt in one line, creating nothing', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const cases: [string[], string][] = [
      [['sesions'], 'chatkeep: unexpected argument sesions: to ask a one-word prompt, give it with -p. See chatkeep --help\n'],
      [['what is', '2+2'], 'chatkeep: unexpected argument 2+2: put the prompt in quotes, as one argument. See chatkeep --help\n'],
      [['-p', 'one', 'two words'], 'chatkeep: unexpected argument two words: the prompt is already given with --prompt. See chatkeep --help\n'],
      [['-r', '-p', 'which one'], 'chatkeep: --prompt answers without the session browser: pick the session with --session-id ID or --continue. See chatkeep --help\n'],
    ];
    for (const [args, said] of cases) {
      const run = await runPiped(args, '', { home: `${home}/never`, cwd });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(said);
    }
    expect(existsSync(`${home}/never`)).toBe(false);
  });

  it('is listed in --help', async () => {
    const help = await runPiped(['--help'], '', { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    expect(help.stdout).toContain('  chatkeep -p TEXT | chatkeep "TEXT"   answer once and exit');
    expect(help.stdout).toMatch(/-p, --prompt TEXT +answer TEXT once and exit/);
  });
});
