#!/usr/bin/env node
// Writes test/fixtures/peer-forks/<tool>-<version>/ with the tools themselves (never by hand):
// a conversation of two turns, a fork of it made by the tool (one turn of its own), then one
// more turn of the original, so the two share two turns and then differ. Codex CLI forks with
// `codex exec fork ID "…"`, Claude Code with `claude -p --resume ID --fork-session "…"`. Gemini
// CLI's fork is a checkpoint: `/chat save TAG` after the two turns, typed in its interactive
// screen (it has no other way), driven in tmux (a private server, `-L`). Same
// set-up as make-peer-fixtures.mjs: the pinned packages in a temporary folder, the local fake
// model server, a scratch HOME, the work tree /tmp/chatkeep-peers/work.
//
//   node scripts/make-fork-fixtures.mjs [codex|claude|gemini …]
//   PEERS_DIR=/tmp/peers  reuse an installation there (else a temporary one is made and removed)
//
// `npm test` never runs this: the tests read the committed fixtures.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGeminiSettings } from './peers/gemini-settings.mjs';

const VERSIONS = { codex: '0.169.0', claude: '2.1.330', gemini: '0.61.0' };
const PACKAGES = { codex: '@openai/codex', claude: '@anthropic-ai/claude-code', gemini: '@google/gemini-cli' };
const TAG = 'two-words';
const TURNS = ['Remember the word aubergine.', 'And the word turnip.', 'In this branch, forget the turnip.', 'Which two words did I ask you to remember?'];
const wanted = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(VERSIONS);
for (const tool of wanted) if (!(tool in VERSIONS)) throw new Error(`unknown tool ${tool} (${Object.keys(VERSIONS).join(', ')})`);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = '/tmp/chatkeep-peers/work';
const scratch = mkdtempSync(join(tmpdir(), 'chatkeep-forks-'));
const peers = process.env.PEERS_DIR ?? join(scratch, 'install');
const port = 18000 + Math.floor(Math.random() * 1000);
const binOf = (tool) => join(peers, 'node_modules', '.bin', tool);

function install() {
  if (wanted.every((tool) => existsSync(binOf(tool))) && process.env.PEERS_DIR) return;
  mkdirSync(peers, { recursive: true });
  writeFileSync(join(peers, 'package.json'), '{"private":true}\n');
  const specs = wanted.map((tool) => `${PACKAGES[tool]}@${VERSIONS[tool]}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], { cwd: peers, stdio: 'inherit' });
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

/** The `.jsonl` files under `home`/`dir`, relative to `home`, sorted. */
function sessionFiles(home, dir) {
  return readdirSync(join(home, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => relative(home, join(e.parentPath ?? e.path, e.name)))
    .sort();
}

const rollouts = (home) => sessionFiles(home, '.codex/sessions');
const idOf = (file) => file.replace(/^.*-([0-9a-f]{8}-[0-9a-f-]{27})\.jsonl$/, '$1');

/** Copies `files` (relative to `home`) into the tool's fixture folder with its manifest. */
function record(tool, home, files, facts) {
  const out = join(repo, 'test/fixtures/peer-forks', `${tool}-${VERSIONS[tool]}`);
  rmSync(out, { recursive: true, force: true });
  for (const file of files) cpSync(join(home, file), join(out, file));
  writeFileSync(
    join(out, 'manifest.json'),
    `${JSON.stringify({ tool, package: PACKAGES[tool], version: VERSIONS[tool], cwd: WORK, ...facts, sharedTurns: 2, turns: TURNS, files }, null, 2)}\n`,
  );
  return `parent ${facts.parent}, fork ${facts.fork}, in ${relative(repo, out)}`;
}

const drive = { codex: driveCodex, claude: driveClaude, gemini: driveGemini };

function driveGemini() {
  const home = join(scratch, 'home-gemini');
  writeGeminiSettings(home);
  const env = [`PATH=${process.env.PATH}`, `HOME=${home}`, 'TERM=xterm-256color', 'LANG=C.UTF-8', 'GEMINI_API_KEY=fake', `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:${port}`, 'GEMINI_CLI_TRUST_WORKSPACE=true'];
  const socket = `chatkeep-forks-${process.pid}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  const until = (what, test) => {
    for (let i = 0; i < 600; i++, sleep(100)) if (test()) return;
    throw new Error(`gemini: timed out waiting for ${what}:\n${tmux('capture-pane', '-p', '-t', 'g')}`);
  };
  const chat = () => {
    const dir = join(home, '.gemini/tmp/work/chats');
    const [name] = existsSync(dir) ? readdirSync(dir) : [];
    return name ? readFileSync(join(dir, name), 'utf8') : '';
  };
  const replies = () => chat().split('\n').filter((l) => l.includes('"type":"gemini"')).length;
  const type = (text) => {
    tmux('send-keys', '-t', 'g', '-l', text);
    sleep(300);
    tmux('send-keys', '-t', 'g', 'Enter');
  };
  tmux('new-session', '-d', '-s', 'g', '-x', '120', '-y', '40', '-c', WORK, 'env', '-i', ...env, binOf('gemini'));
  try {
    until('its prompt', () => tmux('capture-pane', '-p', '-t', 'g').includes('Type your message'));
    for (const [i, text] of TURNS.slice(0, 2).entries()) {
      type(text);
      until(`reply ${i + 1}`, () => replies() === i + 1);
    }
    type(`/chat save ${TAG}`);
    until('the checkpoint', () => existsSync(join(home, `.gemini/tmp/work/checkpoint-${TAG}.json`)));
    // Gemini CLI's screen drops a `?` typed into it: the question goes without one.
    type(TURNS[3].replace(/\?$/, ''));
    until('reply 3', () => replies() === 3);
  } finally {
    tmux('kill-server');
  }
  const parent = JSON.parse(chat().split('\n')[0]).sessionId;
  const files = sessionFiles(home, '.gemini/tmp').concat(['.gemini/tmp/work/.project_root', `.gemini/tmp/work/checkpoint-${TAG}.json`]).sort();
  return record('gemini', home, files, { parent, fork: `checkpoint-${TAG}`, tag: TAG });
}

function driveClaude() {
  const home = join(scratch, 'home-claude');
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH, HOME: home, TERM: 'dumb', LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: 'sk-ant-fake',
    DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
  };
  const run = (...args) => execFileSync(binOf('claude'), ['-p', ...args], { cwd: WORK, env, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const ids = () => sessionFiles(home, '.claude/projects').map((f) => f.replace(/^.*\/([^/]+)\.jsonl$/, '$1'));
  run(TURNS[0]);
  const [parent] = ids();
  run('--resume', parent, TURNS[1]);
  run('--resume', parent, '--fork-session', TURNS[2]);
  const fork = ids().find((id) => id !== parent);
  run('--resume', parent, TURNS[3]);
  return record('claude', home, sessionFiles(home, '.claude/projects'), { parent, fork });
}

function driveCodex() {
  const home = join(scratch, 'home-codex');
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "gpt-fake"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:${port}/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n`,
  );
  const env = { PATH: process.env.PATH, HOME: home, TERM: 'dumb', LANG: 'C.UTF-8', CODEX_HOME: codexHome, FAKE_API_KEY: 'sk-fake' };
  const run = (...args) => execFileSync(binOf('codex'), ['exec', '--skip-git-repo-check', ...args], { cwd: WORK, env, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] });
  run(TURNS[0]);
  const [first] = rollouts(home);
  const parent = idOf(first);
  run('resume', parent, TURNS[1]);
  run('fork', parent, TURNS[2]);
  const fork = idOf(rollouts(home).find((f) => idOf(f) !== parent));
  run('resume', parent, TURNS[3]);
  return record('codex', home, rollouts(home), { parent, fork });
}

let server;
try {
  install();
  prepareWork();
  server = await startServer();
  for (const tool of wanted) console.log(`${tool} ${VERSIONS[tool]}: ${drive[tool]()}`);
} finally {
  server?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}
