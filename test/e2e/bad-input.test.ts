import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

async function refused(args: string[]): Promise<string> {
  const home = join(tmpHome(), 'never-created');
  const result = await runPiped(args, 'hi\n', { home, cwd: tmpHome('chatkeep-project-') });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(existsSync(home)).toBe(false);
  return result.stderr.trimEnd();
}

describe('bad input: one line, exit 2, nothing created', () => {
  it('a bad flag', async () => {
    expect(await refused(['--frobnicate'])).toBe('chatkeep: unknown option --frobnicate. See chatkeep --help');
  });

  it('an empty --home, which would make the current directory the data directory', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const result = await runPiped(['--home', ''], 'hi\n', { home: join(tmpHome(), 'never-created'), cwd });
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'chatkeep: option --home needs a value, not an empty string. See chatkeep --help\n' });
    expect(readdirSync(cwd)).toEqual([]);
    expect(await refused(['sessions', 'list', '--home', ''])).toBe(
      'chatkeep: option --home needs a value, not an empty string. See chatkeep sessions --help',
    );
  });

  it('a file where chatkeep keeps a folder: --home naming a file, or a file named ids in the data directory', async () => {
    const base = tmpHome();
    const file = join(base, 'a-file');
    writeFileSync(file, 'mine\n');
    const cwd = tmpHome('chatkeep-project-');
    const line = `chatkeep: Cannot use the data directory \`${file}\`: \`${file}\` is a file, where chatkeep keeps a folder. Move that file away, or choose another data directory with --home or CHATKEEP_HOME.\n`;
    for (const args of [['--home', file], ['sessions', 'list', '--home', file]]) {
      expect(await runPiped(args, 'hi\n', { home: join(base, 'unused'), cwd })).toEqual({ code: 2, stdout: '', stderr: line });
    }
    expect(readFileSync(file, 'utf8')).toBe('mine\n');

    const home = tmpHome();
    writeFileSync(join(home, 'ids'), 'mine\n');
    const chat = await runPiped([], 'hi\n', { home, cwd });
    expect(chat.code).toBe(1);
    expect(chat.stderr.trimEnd().split('\n').at(-1)).toBe(
      `chatkeep: Cannot use \`${join(home, 'ids')}\`: \`${join(home, 'ids')}\` is a file, where chatkeep keeps a folder. Move that file away, or choose another data directory with --home or CHATKEEP_HOME; nothing saved before was lost.`,
    );
    expect(chat.stderr).not.toContain('This is a bug');
    expect(readFileSync(join(home, 'ids'), 'utf8')).toBe('mine\n');
  });

  it('an option value that begins with - is called missing, not unwanted', async () => {
    expect(await refused(['--session-id', '-c'])).toBe(
      'chatkeep: option --session-id needs a value, and -c looks like an option (to pass it as the value, write --session-id=-c). See chatkeep --help',
    );
    expect(await refused(['--autosave', '-5m'])).toBe(
      'chatkeep: option --autosave needs a value, and -5m looks like an option (to pass it as the value, write --autosave=-5m). See chatkeep --help',
    );
    expect(await refused(['--autosave=-5m'])).toMatch(/^chatkeep: Bad autosave schedule `-5m`: /);
    expect(await refused(['--continue=yes'])).toBe('chatkeep: option --continue does not take a value. See chatkeep --help');
  });

  it('an unknown session ID', async () => {
    expect(await refused(['--session-id', 'session-20200101-000000'])).toBe(
      'chatkeep: No session `session-20200101-000000`. List sessions with: chatkeep sessions list --all',
    );
  });

  it('a malformed session ID', async () => {
    expect(await refused(['--session-id', '../x'])).toMatch(/^chatkeep: Invalid session ID `\.\.\/x`/);
  });

  it('a bad autosave spec', async () => {
    expect(await refused(['--autosave', 'sometimes'])).toMatch(/^chatkeep: Bad autosave schedule `sometimes`: /);
    expect(await refused(['--autosave', '0 0 31 2 *'])).toMatch(/^chatkeep: Bad autosave schedule `0 0 31 2 \*`: /);
  });

  it('an unknown provider', async () => {
    expect(await refused(['--provider', 'skynet'])).toBe('chatkeep: Unknown provider `skynet` (from --provider): use one of echo, anthropic, openai.');
  });

  it('a missing system prompt file', async () => {
    expect(await refused(['--system', 'no-such-prompt.md'])).toMatch(
      /^chatkeep: Cannot read the system prompt `.*no-such-prompt\.md`: no such file\. Give a readable text file: .*chatkeep.* --system FILE$/,
    );
  });

  it('a provider without its API key creates no session', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const result = await runPiped(['--provider', 'anthropic'], 'hi\n', { home, cwd });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^chatkeep: ANTHROPIC_API_KEY is not set: export it\. Or chat offline: .*chatkeep.* --provider echo\n$/);
    const list = await runPiped(['sessions', 'list', '--all', '--json'], '', { home, cwd });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('an unknown session ID in an existing home creates no session', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    expect((await runPiped([], 'hi\n/quit\n', { home, cwd })).code).toBe(0);
    const result = await runPiped(['--session-id', 'nope'], '', { home, cwd });
    expect(result.code).toBe(2);
    const list = await runPiped(['sessions', 'list', '--all', '--json'], '', { home, cwd });
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });
});

describe('--help and --version', () => {
  it('prints the version', async () => {
    const result = await runPiped(['--version'], '', { home: join(tmpHome(), 'h'), cwd: tmpHome() });
    expect(result).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('prints help naming every flag and subcommand', async () => {
    const home = join(tmpHome(), 'h');
    const result = await runPiped(['--help'], '', { home, cwd: tmpHome() });
    expect(result.code).toBe(0);
    for (const flag of ['--session-id ID', '-c, --continue', '-r, --resume', '--home DIR', '--autosave SPEC', '--provider NAME', '--model NAME', 'sessions list', 'sessions show ID']) {
      expect(result.stdout).toContain(flag);
    }
    expect(existsSync(home)).toBe(false);
    const sub = await runPiped(['sessions', '--help'], '', { home, cwd: tmpHome() });
    expect(sub.stdout).toContain('chatkeep sessions list [--all] [--branch NAME] [--project PATH] [--limit N] [--json]');
  });
});
