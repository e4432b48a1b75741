#!/usr/bin/env node
// Writes test/fixtures/peer-forks/codex-<version>/ with Codex CLI itself (never by hand): a
// conversation of two turns, a fork of it made by `codex exec fork ID "…"` (one turn of its
// own), then one more turn of the original, so the two share two turns and then differ. Same
// set-up as make-peer-fixtures.mjs: the pinned package in a temporary folder, the local fake
// model server, a scratch HOME, the work tree /tmp/chatkeep-peers/work.
//
//   node scripts/make-fork-fixtures.mjs
//   PEERS_DIR=/tmp/peers  reuse an installation there (else a temporary one is made and removed)
//
// `npm test` never runs this: the tests read the committed fixtures.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '0.169.0';
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = '/tmp/chatkeep-peers/work';
const scratch = mkdtempSync(join(tmpdir(), 'chatkeep-forks-'));
const peers = process.env.PEERS_DIR ?? join(scratch, 'install');
const port = 18000 + Math.floor(Math.random() * 1000);
const bin = join(peers, 'node_modules', '.bin', 'codex');

function install() {
  if (existsSync(bin) && process.env.PEERS_DIR) return;
  mkdirSync(peers, { recursive: true });
  writeFileSync(join(peers, 'package.json'), '{"private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `@openai/codex@${VERSION}`], { cwd: peers, stdio: 'inherit' });
}

function prepareWork() {
  rmSync(dirname(WORK), { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'note.txt'), 'The note says: bring your history along.\n');
  const git = (...args) => execFileSync('git', ['-c', 'user.name=fixtures', '-c', 'user.email=fixtures@example.invalid', ...args], { cwd: WORK, stdio: 'ignore' });
  git('init', '-q', '-b', 'feature/peer-forks');
  git('add', '.');
  git('commit', '-q', '-m', 'note');
}

async function startServer() {
  const log = join(scratch, 'server-log');
  const child = spawn(process.execPath, [join(repo, 'scripts/peers/fake-server.mjs')], {
    env: { ...process.env, PORT: String(port), LOG_DIR: log, REPLY_WORDS: '8' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 100 && !existsSync(join(log, 'server.pid')); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(join(log, 'server.pid'))) throw new Error('the fake server did not start');
  return child;
}

function rollouts(home) {
  const dir = join(home, '.codex/sessions');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => relative(home, join(e.parentPath ?? e.path, e.name)))
    .sort();
}

const idOf = (file) => file.replace(/^.*-([0-9a-f]{8}-[0-9a-f-]{27})\.jsonl$/, '$1');

function drive() {
  const home = join(scratch, 'home-codex');
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "gpt-fake"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:${port}/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n`,
  );
  const env = { PATH: process.env.PATH, HOME: home, TERM: 'dumb', LANG: 'C.UTF-8', CODEX_HOME: codexHome, FAKE_API_KEY: 'sk-fake' };
  const run = (...args) => execFileSync(bin, ['exec', '--skip-git-repo-check', ...args], { cwd: WORK, env, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] });
  run('Remember the word aubergine.');
  const [first] = rollouts(home);
  const parent = idOf(first);
  run('resume', parent, 'And the word turnip.');
  run('fork', parent, 'In this branch, forget the turnip.');
  const fork = idOf(rollouts(home).find((f) => idOf(f) !== parent));
  run('resume', parent, 'Which two words did I ask you to remember?');
  const out = join(repo, 'test/fixtures/peer-forks', `codex-${VERSION}`);
  rmSync(out, { recursive: true, force: true });
  const files = rollouts(home);
  for (const file of files) cpSync(join(home, file), join(out, file));
  writeFileSync(
    join(out, 'manifest.json'),
    `${JSON.stringify({ tool: 'codex', package: '@openai/codex', version: VERSION, cwd: WORK, parent, fork, sharedTurns: 2, files }, null, 2)}\n`,
  );
  return `parent ${parent}, fork ${fork}, in ${relative(repo, out)}`;
}

let server;
try {
  install();
  prepareWork();
  server = await startServer();
  console.log(`codex ${VERSION}: ${drive()}`);
} finally {
  server?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}
