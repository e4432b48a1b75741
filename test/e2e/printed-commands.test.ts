/**
 * Every command chatkeep prints runs as printed, where it was printed: `chatkeep …` only when
 * that name on PATH is this program, `npm start -- …` after `npm start`, else `node <path> …`.
 * Each test runs the printed command itself.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATH_SHIM, ROOT } from '../../torture/proc.js';
import { BIN, runPiped, type PipedResult } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

/** The test's PATH without the `chatkeep` shim (the machine has no chatkeep of its own). */
const PLAIN_PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== PATH_SHIM && !dir.includes('node_modules')).join(delimiter);

/** Runs `command` through the shell, as a person pastes it, with `input` on stdin. */
function shell(command: string, options: { cwd: string; env: Record<string, string> }, input: string): Promise<PipedResult> {
  const child = spawn('/bin/sh', ['-c', command], { cwd: options.cwd, env: options.env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 128, stdout, stderr }));
  });
}

/** The environment of a shell where the person runs the printed command. */
function shellEnv(home: string, path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !/^npm_|API_KEY|^CHATKEEP_/.test(key)) env[key] = value;
  return { ...env, PATH: path, CHATKEEP_HOME: home, CHATKEEP_ECHO_DELAY_MS: '0' };
}

/** Chats once; returns the printed `Resume with:` command. */
async function resumeCommand(args: string[], options: { home: string; cwd: string; env?: Record<string, string> }): Promise<string> {
  const first = await runPiped(args, 'first\n', options);
  expect(first.code).toBe(0);
  const command = /Resume with: (.+)\n$/.exec(first.stderr)?.[1];
  expect(command).toBeDefined();
  return command!;
}

describe('the printed resume command runs as printed', () => {
  it('is `chatkeep …` when chatkeep on PATH is this program (after npm link), and runs', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const command = await resumeCommand([], { home, cwd });
    expect(command).toMatch(/^chatkeep --session-id session-\d{8}-\d{6}$/);
    const again = await shell(command, { cwd, env: shellEnv(home, `${PATH_SHIM}${delimiter}${PLAIN_PATH}`) }, 'second\n');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('Echo: second (read 3 messages)\n');
  });

  it('is `node <path>/bin/chatkeep.js …` when chatkeep is not on PATH, and runs', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const command = await resumeCommand([], { home, cwd, env: { PATH: PLAIN_PATH } });
    expect(command).toMatch(new RegExp(`^node ${BIN.replace(/[.]/g, '\\.')} --session-id session-\\d{8}-\\d{6}$`));
    const again = await shell(command, { cwd: tmpHome('chatkeep-elsewhere-'), env: shellEnv(home, PLAIN_PATH) }, 'second\n');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('Echo: second (read 3 messages)\n');
  });

  it('is not `chatkeep …` when the chatkeep on PATH is another program', async () => {
    const bin = tmpHome('chatkeep-otherbin-');
    writeFileSync(join(bin, 'chatkeep'), '#!/bin/sh\necho "some other chatkeep"\n');
    chmodSync(join(bin, 'chatkeep'), 0o755);
    const command = await resumeCommand([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-'), env: { PATH: `${bin}${delimiter}${PLAIN_PATH}` } });
    expect(command).toMatch(/^node \S+\/bin\/chatkeep\.js --session-id /);
  });

  it('is `npm start -- …` when started by npm start, and runs', async () => {
    const home = tmpHome();
    const env = { PATH: PLAIN_PATH, npm_lifecycle_event: 'start', npm_package_json: join(ROOT, 'package.json') };
    const command = await resumeCommand([], { home, cwd: ROOT, env });
    expect(command).toMatch(/^npm start -- --session-id session-\d{8}-\d{6}$/);
    const again = await shell(command, { cwd: ROOT, env: shellEnv(home, PLAIN_PATH) }, 'second\n');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Echo: second (read 3 messages)\n');
  });

  it('carries --home when the data directory was given as a flag', async () => {
    const home = join(tmpHome(), 'my data');
    const cwd = tmpHome('chatkeep-project-');
    const command = await resumeCommand(['--home', home], { home: tmpHome(), cwd });
    expect(command).toBe(`chatkeep --home '${home}' --session-id ${/session-\d{8}-\d{6}/.exec(command)?.[0]}`);
    const again = await shell(command, { cwd, env: shellEnv(tmpHome(), `${PATH_SHIM}${delimiter}${PLAIN_PATH}`) }, 'second\n');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('Echo: second (read 3 messages)\n');
  });
});

describe('commands inside error messages run as printed', () => {
  it('an unknown session names a listing command that runs', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    mkdirSync(home, { recursive: true });
    expect((await runPiped([], 'one\n', { home, cwd })).code).toBe(0);
    const refused = await runPiped(['--session-id', 'nope'], '', { home, cwd, env: { PATH: PLAIN_PATH } });
    expect(refused.code).toBe(2);
    const command = /List sessions with: (.+)\n$/.exec(refused.stderr)?.[1];
    expect(command).toBe(`node ${BIN} sessions list --all`);
    const listed = await shell(command!, { cwd, env: shellEnv(home, PLAIN_PATH) }, '');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ {2}session-\d{8}-\d{6} .* 2 messages/);
  });

  it('a bad sessions subcommand points to `sessions --help`, which runs', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const bad = await runPiped(['sessions', 'bogus'], '', { home: tmpHome(), cwd, env: { PATH: PLAIN_PATH } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`chatkeep: unknown command \`sessions bogus\`. See node ${BIN} sessions --help\n`);
    const help = await shell(/See (.+)\n$/.exec(bad.stderr)![1]!, { cwd, env: shellEnv(tmpHome(), PLAIN_PATH) }, '');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('chatkeep sessions list [--all] [--branch NAME] [--project PATH] [--limit N] [--json]');
  });
});

describe('a printed command stands alone at the end of its line', () => {
  it('/load of a session in the trash: the restore command ends its line and runs as printed', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const env = { PATH: PLAIN_PATH };
    const trashed = /Saved (\S+) \(/.exec((await runPiped([], 'old\n', { home, cwd, env })).stderr)![1]!;
    expect((await runPiped(['sessions', 'rm', trashed], '', { home, cwd, env })).code).toBe(0);
    const chat = await runPiped([], `/load ${trashed}\n/quit\n`, { home, cwd, env });
    const lines = chat.stderr.split('\n');
    const at = lines.findIndex((line) => line.includes(`sessions restore ${trashed}`));
    expect(lines[at]).toMatch(new RegExp(`Restore it with: (node \\S+ sessions restore ${trashed})$`));
    // The chat may get the same second's ID with -2 (IDs take -2, -3 on a clash).
    expect(lines[at + 1]).toMatch(/^Still in session-\d{8}-\d{6}(-\d+)?\.$/);
    const restore = /with: (.+)$/.exec(lines[at]!)![1]!;
    const restored = await shell(restore, { cwd, env: shellEnv(home, PLAIN_PATH) }, '');
    expect(restored.code).toBe(0);
  });
});
