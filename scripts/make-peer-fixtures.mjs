#!/usr/bin/env node
// Writes test/fixtures/peers/<tool>-<version>/ with the tools themselves (never by hand):
// installs pinned Claude Code, Codex CLI and Gemini CLI into a temporary folder, starts the
// local fake model server (scripts/peers/fake-server.mjs), drives each tool through three turns
// (the second makes a tool call: it reads a file) with a scratch HOME, in a git work tree on a
// named branch, and copies the session files each tool wrote, as they are.
//
//   node scripts/make-peer-fixtures.mjs [claude|codex|gemini …]
//   node scripts/make-peer-fixtures.mjs --export-only   only the check that Claude Code resumes
//                                                        chatkeep's `--format claude` export
//   PEERS_DIR=/tmp/peers  reuse an installation there (else a temporary one is made and removed)
//
// The work tree is always /tmp/chatkeep-peers/work, so the recorded working directory is the
// same on every run. `npm test` never runs this: the tests read the committed fixtures.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGeminiSettings } from './peers/gemini-settings.mjs';

const VERSIONS = { claude: '2.1.330', codex: '0.169.0', gemini: '0.61.0' };
const PACKAGES = { claude: '@anthropic-ai/claude-code', codex: '@openai/codex', gemini: '@google/gemini-cli' };
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = '/tmp/chatkeep-peers/work';
const NOTE = join(WORK, 'note.txt');
// A made-up GitHub token: the import must redact it on the way in.
const SECRET = 'ghp_FAKEfakeFAKEfake0123456789abcdefABCDEF';
const TURNS = [
  'Hello! Please remember the word aubergine.',
  `Now read the file ${NOTE} and tell me what it says.`,
  `Thanks. My token is ${SECRET}, never repeat it.`,
];

const exportOnly = process.argv.includes('--export-only');
const named = process.argv.slice(2).filter((a) => a !== '--export-only');
const wanted = exportOnly ? ['claude'] : named.length ? named : Object.keys(VERSIONS);
for (const tool of wanted) if (!(tool in VERSIONS)) throw new Error(`unknown tool ${tool} (claude, codex or gemini)`);

const scratch = mkdtempSync(join(tmpdir(), 'chatkeep-peers-'));
const peers = process.env.PEERS_DIR ?? join(scratch, 'install');
const port = 18000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
function install() {
  const bins = wanted.map((tool) => join(peers, 'node_modules', '.bin', tool));
  if (bins.every((bin) => existsSync(bin)) && process.env.PEERS_DIR) return;
  mkdirSync(peers, { recursive: true });
  writeFileSync(join(peers, 'package.json'), '{"private":true}\n');
  const specs = wanted.map((tool) => `${PACKAGES[tool]}@${VERSIONS[tool]}`);
  console.log(`installing ${specs.join(' ')} into ${peers}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], { cwd: peers, stdio: 'inherit' });
}

function prepareWork() {
  rmSync(dirname(WORK), { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  writeFileSync(NOTE, 'The note says: bring your history along.\n');
  const git = (...args) => execFileSync('git', args, { cwd: WORK, stdio: 'ignore' });
  git('init', '-q', '-b', 'feature/peer-import');
  git('-c', 'user.name=fixtures', '-c', 'user.email=fixtures@example.invalid', 'add', '.');
  git('-c', 'user.name=fixtures', '-c', 'user.email=fixtures@example.invalid', 'commit', '-q', '-m', 'note');
}

async function startServer() {
  const log = join(scratch, 'server-log');
  const child = spawn(process.execPath, [join(repo, 'scripts/peers/fake-server.mjs')], {
    env: { ...process.env, PORT: String(port), LOG_DIR: log, REPLY_WORDS: '8', LOG_BODIES: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 100 && !existsSync(join(log, 'server.pid')); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(join(log, 'server.pid'))) throw new Error('the fake server did not start');
  return child;
}

/** Runs one tool through the turns; copies what it wrote; returns a line about it. */
function drive(tool) {
  const home = join(scratch, `home-${tool}`);
  mkdirSync(home, { recursive: true });
  const bin = join(peers, 'node_modules', '.bin', tool);
  const env = { PATH: process.env.PATH, HOME: home, TERM: 'dumb', LANG: 'C.UTF-8', ...setUp[tool](home) };
  const run = (args) => execFileSync(bin, args, { cwd: WORK, env, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] });
  run(first[tool](TURNS[0]));
  const id = sessionId[tool](home);
  for (const text of TURNS.slice(1)) run(next[tool](id, text));
  const out = join(repo, 'test/fixtures/peers', `${tool}-${VERSIONS[tool]}`);
  rmSync(out, { recursive: true, force: true });
  const files = keep[tool](home);
  for (const file of files) cpSync(join(home, file), join(out, file));
  writeFileSync(
    join(out, 'manifest.json'),
    `${JSON.stringify({ tool, package: PACKAGES[tool], version: VERSIONS[tool], cwd: WORK, branch: 'feature/peer-import', sessionId: id, turns: TURNS, files }, null, 2)}\n`,
  );
  return `session ${id}, ${files.length} file(s) in ${relative(repo, out)}`;
}

/**
 * The other way round: chatkeep imports the Claude Code fixture, exports it `--format claude`
 * into a fresh Claude Code home, and the real `claude --resume` continues it. What Claude Code
 * then sent the model is recorded in test/fixtures/peers-roundtrip/ (resume-of-export.json), with the file
 * chatkeep wrote (a test keeps the exporter's output equal to the file Claude Code accepted).
 * Needs chatkeep built (npm run build).
 */
function resumeExport() {
  const out = join(repo, 'test/fixtures/peers', `claude-${VERSIONS.claude}`);
  const chatkeep = (args, env = {}) =>
    execFileSync(process.execPath, [join(repo, 'bin/chatkeep.js'), ...args], { cwd: WORK, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: join(scratch, 'ck-user'), ...env } });
  const home = join(scratch, 'chatkeep-home');
  chatkeep(['sessions', 'import', '--from', 'claude', out, '--home', home]);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  const id = `claude-${manifest.sessionId}`;
  const exported = chatkeep(['sessions', 'export', id, '--format', 'claude', '--home', home]);
  const sessionId = JSON.parse(exported.split('\n')[0]).sessionId;
  const claudeHome = join(scratch, 'home-claude-resume');
  const file = join(claudeHome, '.claude/projects', WORK.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, exported);
  const bodies = join(scratch, 'server-log', 'bodies');
  const before = new Set(readdirSync(bodies));
  const question = 'What did the note say, and which word did I ask you to remember?';
  const answer = execFileSync(join(peers, 'node_modules/.bin/claude'), ['-p', '--resume', sessionId, question], {
    cwd: WORK, encoding: 'utf8', timeout: 180_000, env: { PATH: process.env.PATH, HOME: claudeHome, TERM: 'dumb', ...setUp.claude() },
  });
  const sent = readdirSync(bodies).filter((n) => !before.has(n)).map((n) => JSON.parse(readFileSync(join(bodies, n), 'utf8')))
    .filter((b) => Array.isArray(b.messages)).at(-1);
  if (!sent) throw new Error('claude sent no request');
  const text = (content) => (typeof content === 'string' ? content : content.map((b) => b.text ?? (b.type === 'tool_use' ? `[tool_use ${b.name} ${JSON.stringify(b.input)}]` : b.type === 'tool_result' ? `[tool_result ${typeof b.content === 'string' ? b.content : JSON.stringify(b.content)}]` : `[${b.type}]`)).join(' | '));
  // Beside the fixtures, not in them: an import of the fixture folder must not find it.
  const proof = join(repo, 'test/fixtures/peers-roundtrip', `claude-${VERSIONS.claude}`);
  mkdirSync(proof, { recursive: true });
  writeFileSync(join(proof, 'exported-by-chatkeep.jsonl'), exported);
  const record = { chatkeepSession: id, claudeSessionId: sessionId, command: `claude -p --resume ${sessionId} "${question}"`, reply: answer.trim(), sent: sent.messages.map((m) => ({ role: m.role, text: text(m.content).slice(-400) })) };
  writeFileSync(join(proof, 'resume-of-export.json'), `${JSON.stringify(record, null, 2)}\n`);
  return `resumed chatkeep's export ${sessionId}: ${sent.messages.length} messages sent`;
}

const setUp = {
  claude: () => ({
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: 'sk-ant-fake',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  }),
  codex: (home) => {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      `model = "gpt-fake"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "${base}/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n`,
    );
    return { CODEX_HOME: codexHome, FAKE_API_KEY: 'sk-fake' };
  },
  gemini: (home) => {
    writeGeminiSettings(home);
    return { GEMINI_API_KEY: 'fake', GOOGLE_GEMINI_BASE_URL: base, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
  },
};

const first = {
  claude: (text) => ['-p', text],
  codex: (text) => ['exec', '--skip-git-repo-check', text],
  gemini: (text) => ['-p', text],
};

const next = {
  claude: (id, text) => ['-p', '--resume', id, text],
  codex: (id, text) => ['exec', '--skip-git-repo-check', 'resume', id, text],
  gemini: (id, text) => ['--resume', id, '-p', text],
};

/** Files under `dir` (relative to `root`), recursively. */
function filesUnder(root, dir) {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
    .sort();
}

const keep = {
  claude: (home) => filesUnder(home, '.claude/projects'),
  codex: (home) => [...filesUnder(home, '.codex/sessions'), ...filesUnder(home, '.codex').filter((f) => f === '.codex/session_index.jsonl')],
  gemini: (home) => [
    ...filesUnder(home, '.gemini/tmp').filter((f) => /\/chats\/|\.project_root$/.test(f)),
    ...(existsSync(join(home, '.gemini/projects.json')) ? ['.gemini/projects.json'] : []),
  ],
};

const sessionId = {
  claude: (home) => only(filesUnder(home, '.claude/projects').filter((f) => f.endsWith('.jsonl'))).replace(/^.*\/([^/]+)\.jsonl$/, '$1'),
  codex: (home) => only(filesUnder(home, '.codex/sessions')).replace(/^.*-([0-9a-f]{8}-[0-9a-f-]{27})\.jsonl$/, '$1'),
  gemini: (home) => JSON.parse(readFileSync(join(home, only(filesUnder(home, '.gemini/tmp').filter((f) => f.includes('/chats/')))), 'utf8').split('\n')[0]).sessionId,
};

function only(list) {
  if (list.length !== 1) throw new Error(`expected one session file after the first turn, found ${list.length}: ${list.join(', ')}`);
  return list[0];
}

async function main() {
  let server;
  try {
    install();
    prepareWork();
    server = await startServer();
    const failed = [];
    for (const tool of exportOnly ? [] : wanted) {
      try {
        const out = drive(tool);
        console.log(`${tool} ${VERSIONS[tool]}: ${out}`);
      } catch (err) {
        failed.push(tool);
        console.error(`${tool} ${VERSIONS[tool]}: FAILED: ${err.message}`);
      }
    }
    if (wanted.includes('claude') && !failed.includes('claude')) {
      try {
        console.log(`claude ${VERSIONS.claude}: ${resumeExport()}`);
      } catch (err) {
        failed.push('claude export');
        console.error(`claude ${VERSIONS.claude}: resuming chatkeep's export FAILED: ${err.message}`);
      }
    }
    if (failed.length) process.exitCode = 1;
  } finally {
    server?.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
