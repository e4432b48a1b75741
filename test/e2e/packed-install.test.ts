/**
 * `npm install chatkeep` alone, as a program embedding it does: the packed tarball installed into
 * a fresh project with none of chatkeep's dev dependencies (nor its optional peers), where both
 * examples run their whole experience (commands, resuming with its relative time), a strict
 * TypeScript host compiles with skipLibCheck off, and a framework subpath whose peer is missing
 * says which package to install.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../torture/proc.js';

let project: string;

/** Runs `script` in the project with `input` piped, its data in `home`. */
function run(script: string, args: string[], input: string, home: string): string {
  const done = spawnSync(process.execPath, [script, ...args], { cwd: project, input, encoding: 'utf8', env: { ...process.env, CHATKEEP_HOME: home, NO_COLOR: '1' }, timeout: 60_000 });
  return done.stdout + done.stderr;
}

/** Bytes under `dir`, every file counted once. */
function size(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

beforeAll(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'chatkeep-packed-')));
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'host', private: true, type: 'module' }));
  // From the npm cache `npm ci` filled: the test needs no network when the checkout was installed.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(project, packed)], { cwd: project, stdio: 'pipe' });
  mkdirSync(join(project, 'examples'));
  for (const example of ['embed-node-repl.mjs', 'embed-readline.mjs']) copyFileSync(join(ROOT, 'examples', example), join(project, 'examples', example));
}, 180_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('chatkeep installed from its tarball alone', () => {
  it('installs no optional peer and stays small', () => {
    const installed = readdirSync(join(project, 'node_modules'));
    for (const peer of ['date-fns', '@inquirer', '@langchain', '@openai', 'pg', 'marked']) expect(installed).not.toContain(peer);
    expect(size(join(project, 'node_modules'))).toBeLessThan(20_000_000);
  });

  it('runs the node:repl example: its commands, and resuming with how long ago', () => {
    const home = join(project, 'home-repl');
    const first = run('examples/embed-node-repl.mjs', [], '.status\n1 + 1\n.exit\n', home);
    expect(first).not.toMatch(/unexpected failure|Cannot find package|ERR_MODULE_NOT_FOUND/);
    expect(first).toMatch(/Last save/);
    const id = /Resume with: node examples\/embed-node-repl\.mjs (\S+)/.exec(first)?.[1];
    expect(id).toBeDefined();
    const again = run('examples/embed-node-repl.mjs', [id!], '.sessions\n.exit\n', home);
    expect(again).toContain(`Resumed session ${id} (2 messages, last active less than a minute ago`);
    expect(again).not.toMatch(/unexpected failure|Cannot find package|ERR_MODULE_NOT_FOUND/);
  });

  it("says errors in each example's own words: its commands, never chatkeep's, no chatkeep: before them", () => {
    const home = join(project, 'home-words');
    const repl = run('examples/embed-node-repl.mjs', [], '.load no-such-session\n.exit\n', home);
    expect(repl).toContain('No session `no-such-session`. List sessions with: .sessions --all\n');
    const readline = run('examples/embed-readline.mjs', [], '/load no-such-session\n/quit\n', home);
    expect(readline).toContain('No session `no-such-session`. List sessions with: /sessions --all\n');
    // Refused before any command exists: the message alone, no subcommand the host does not have.
    const refused = spawnSync(process.execPath, ['examples/embed-readline.mjs', 'no-such-session'], { cwd: project, input: '', encoding: 'utf8', env: { ...process.env, CHATKEEP_HOME: home } });
    expect(refused.stdout).toMatch(/^No session `no-such-session`\.\n/);
    for (const out of [repl, readline, refused.stdout + refused.stderr]) expect(out).not.toMatch(/chatkeep:|chatkeep sessions|sessions list/);
  });

  it('runs the readline example: its commands, its own lines, and resuming', () => {
    const home = join(project, 'home-readline');
    const first = run('examples/embed-readline.mjs', [], '/status\nhello\n/sessions\n/quit\n', home);
    expect(first).not.toMatch(/unexpected failure|Cannot find package|ERR_MODULE_NOT_FOUND/);
    expect(first).toContain('HELLO!');
    const id = /Resume with: node examples\/embed-readline\.mjs (\S+)/.exec(first)?.[1];
    expect(id).toBeDefined();
    const again = run('examples/embed-readline.mjs', [id!], '/quit\n', home);
    expect(again).toContain(`Resumed session ${id} (2 messages, last active less than a minute ago`);
  });

  it('compiles a strict TypeScript host with skipLibCheck off', () => {
    writeFileSync(
      join(project, 'host.ts'),
      [
        "import { openSessions, type Session } from 'chatkeep';",
        "import { attach, attachReadline, openBrowser } from 'chatkeep/repl';",
        "const sessions = await openSessions({ home: 'home-ts', cwd: process.cwd() });",
        'const session: Session = await sessions.create();',
        'console.log(typeof attach, typeof attachReadline, typeof openBrowser, session.id);',
        '',
      ].join('\n'),
    );
    // The checkout's TypeScript and Node types: the host project itself has only chatkeep.
    const tsconfig = { compilerOptions: { strict: true, skipLibCheck: false, module: 'nodenext', target: 'es2022', noEmit: true, typeRoots: [join(ROOT, 'node_modules/@types')], types: ['node'] }, files: ['host.ts'] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    // A whole tsc run over every declaration the host reaches (skipLibCheck off checks them all):
    // 15 s on an idle machine, twice that on a loaded one.
  }, 120_000);

  it('runs a CommonJS host: require() of each entry, with and without --experimental-require-module', () => {
    writeFileSync(
      join(project, 'host.cjs'),
      [
        "const { openSessions, MissingPackageError } = require('chatkeep');",
        "const repl = require('chatkeep/repl');",
        "const agents = require('chatkeep/openai-agents');",
        "const aiSdk = require('chatkeep/ai-sdk');",
        '(async () => {',
        '  const sessions = await openSessions({ home: process.argv[2], cwd: process.cwd() });',
        "  const session = await sessions.create({ title: 'from require' });",
        "  await session.append({ role: 'user', content: 'hi' });",
        '  await session.close();',
        "  console.log(typeof repl.attach, typeof agents.openAgentSession, typeof aiSdk.openChatStore, (await sessions.list()).map((r) => r.title).join());",
        '  await sessions.close();',
        "  try { require('chatkeep/langchain'); } catch (err) { console.log(err.code, err instanceof MissingPackageError); }",
        '})();',
        '',
      ].join('\n'),
    );
    for (const flags of [[], ['--experimental-require-module']]) {
      const home = join(project, `home-cjs${flags.length}`);
      const done = spawnSync(process.execPath, [...flags, 'host.cjs', home], { cwd: project, encoding: 'utf8' });
      expect(done.stderr).toBe('');
      expect(done.stdout).toBe('function function function from require\nE_MISSING_PACKAGE true\n');
      // Stored where the CLI, run from the same install, finds it.
      const listed = run('node_modules/chatkeep/bin/chatkeep.js', ['sessions', 'list'], '', home);
      expect(listed).toContain('from require');
    }
  });

  it('names the package a framework subpath needs when it is not installed', () => {
    const probe = "import('chatkeep/langchain').then(() => console.log('loaded'), (err) => console.log(err.code, err.message));";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: project, encoding: 'utf8' });
    expect(out.trim()).toBe('E_MISSING_PACKAGE chatkeep/langchain needs the package `@langchain/core`, which is not installed: npm install @langchain/core');
    const saver = "import('chatkeep/langgraph').then((m) => m.openCheckpointSaver({})).then(() => console.log('opened'), (err) => console.log(err.code, err.message));";
    const said = execFileSync(process.execPath, ['--input-type=module', '-e', saver], { cwd: project, encoding: 'utf8' });
    expect(said.trim()).toBe(
      'E_MISSING_PACKAGE chatkeep/langgraph needs the package `@langchain/langgraph-checkpoint`, which is not installed: npm install @langchain/langgraph-checkpoint',
    );
  });
});
