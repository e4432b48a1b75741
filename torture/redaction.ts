/**
 * Redaction: a corpus of secret formats is pushed through the library (messages, streamed
 * replies, tool-call arguments, titles, history) and through the real binary (chat lines,
 * `/save` titles, a secret-named environment variable); then every file under the data home
 * and every `sessions show --json` export is searched for each secret. A corpus of ordinary
 * prose and code must come through (nearly) untouched.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRedactor, openSessions } from '../src/index.js';
import type { SessionManager } from '../src/index.js';
import { Tally, type PartResult } from './part.js';
import { freshDir, ROOT, runPiped } from './proc.js';
import { startPty } from './pty.js';
import { createRandom, type Random } from './random.js';

/** One secret of the corpus: the text it is written in, and the part that must never reach the disk. */
export interface SecretSample {
  format: string;
  text: string;
  secret: string;
}

/** Where to run. */
export interface RedactionOptions {
  root: string;
  seed?: number;
}

const CORPUS = join(ROOT, 'torture', 'corpus');

/** The secret corpus (`torture/corpus/secrets.json`): fake values in real formats. */
export function secretCorpus(): SecretSample[] {
  return JSON.parse(readFileSync(join(CORPUS, 'secrets.json'), 'utf8')) as SecretSample[];
}

/** The ordinary corpus (`torture/corpus/ordinary.txt`): prose and code that must stay as it is. */
export function ordinaryCorpus(): string[] {
  return readFileSync(join(CORPUS, 'ordinary.txt'), 'utf8').split('\n').filter((line) => line.trim() !== '');
}

/** A secret held only in the environment, under a secret-like name. */
const ENV_SECRET = { name: 'ACME_DEPLOY_TOKEN', value: 'acme-deploy-7Qx2vLp9Rk4Tz8Wm' };

/** Every file under `dir`, as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, text: readFileSync(path, 'latin1') + readFileSync(path, 'utf8') });
  }
  return out;
}

/** The secret and, for long ones, its last 16 characters: a partial leak counts too. */
function needles(sample: SecretSample): string[] {
  return sample.secret.length >= 24 ? [sample.secret, sample.secret.slice(-16)] : [sample.secret];
}

/** (format, file) pairs already counted: a secret found in one file at several stages counts once. */
const found = new WeakMap<Tally, Set<string>>();

/** Counts each (secret, file) pair where a secret was found. */
function search(tally: Tally, samples: SecretSample[], places: { path: string; text: string }[], when: string): void {
  const seen = found.get(tally) ?? new Set<string>();
  found.set(tally, seen);
  for (const sample of samples) {
    for (const place of places) {
      const key = `${sample.format}\0${place.path}`;
      if (seen.has(key) || !needles(sample).some((needle) => place.text.includes(needle))) continue;
      seen.add(key);
      tally.fail('secretsFoundOnDisk', `${sample.format} in ${place.path.split('/').slice(-3).join('/')} (${when})`);
    }
  }
}

/** Splits text at random points, as a provider's stream would. */
function chunks(text: string, rng: Random): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const n = rng.int(1, 12);
    out.push(text.slice(at, at + n));
    at += n;
  }
  return out;
}

async function throughLibrary(root: string, samples: SecretSample[], rng: Random, tally: Tally): Promise<void> {
  const home = freshDir(root, 'red-lib-home-');
  const cwd = freshDir(root, 'red-lib-project-');
  const env = { [ENV_SECRET.name]: ENV_SECRET.value };
  const manager: SessionManager = await openSessions({ home, cwd, env });
  const session = await manager.create();
  const all = [...samples, { format: 'environment value', text: `deploying with ${ENV_SECRET.value} now`, secret: ENV_SECRET.value }];
  for (const [i, sample] of all.entries()) {
    await session.append({ role: 'user', content: sample.text });
    const reply = session.beginReply();
    for (const piece of chunks(`Sure, I stored ${sample.text} for you.`, rng)) await reply.push(piece);
    await reply.finish();
    await session.append({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `call_${i}`, name: 'write_env', arguments: JSON.stringify({ line: sample.text, path: '.env' }) }],
    });
    await session.append({ role: 'tool', content: `wrote ${sample.text}`, toolCallId: `call_${i}` });
    if (!sample.text.includes('\n')) {
      await session.setTitle(sample.text);
      await manager.history.append(sample.text);
    }
    tally.add('secretsPushed', 5);
    // Journal only (streamed deltas included), before any snapshot holds this secret.
    if (i % 7 === 0) search(tally, [sample], filesUnder(home), 'library, journal');
  }
  search(tally, all, filesUnder(home), 'library, before saving');
  // Redaction must not break what it rewrites: every tool call's arguments still parse.
  for (const message of (await manager.read(session.id)).messages) {
    for (const call of message.toolCalls ?? []) {
      try {
        JSON.parse(call.arguments);
      } catch {
        tally.fail('toolArgumentsBroken', `${call.id}: ${call.arguments.slice(0, 120)}`);
      }
    }
  }
  await session.save();
  search(tally, all, filesUnder(home), 'library, snapshot');
  await session.reset();
  await session.close();
  search(tally, all, filesUnder(home), 'library, closed');
}

async function throughBinary(root: string, samples: SecretSample[], tally: Tally): Promise<void> {
  const home = freshDir(root, 'red-bin-home-');
  const cwd = freshDir(root, 'red-bin-project-');
  const lines = samples.filter((s) => !s.text.includes('\n'));
  const input: string[] = [];
  for (const [i, sample] of lines.entries()) {
    input.push(sample.text);
    if (i % 3 === 0) input.push(`/save ${sample.text}`);
  }
  input.push(`token from the environment: ${ENV_SECRET.value}`, '/quit');
  const env = { [ENV_SECRET.name]: ENV_SECRET.value };
  const run = await runPiped(['--autosave', '1s'], `${input.join('\n')}\n`, { home, cwd, env });
  tally.add('secretsPushed', input.length - 1);
  if (run.code !== 0) tally.fail('runsFailed', `binary: exit ${run.code}: ${run.stderr.slice(-300)}`);
  const id = /· session (\S+) ·/.exec(run.stderr)?.[1] ?? '';
  const show = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd, env });
  const list = await runPiped(['sessions', 'list', '--json'], '', { home, cwd, env });
  const all = [...lines, { format: 'environment value', text: '', secret: ENV_SECRET.value }];
  search(tally, all, [...filesUnder(home), { path: 'sessions show --json', text: show.stdout }, { path: 'sessions list --json', text: list.stdout }], 'binary');
}

/** On a terminal: typed lines and pasted multi-line secrets, which also go to the history file. */
async function throughTerminal(root: string, samples: SecretSample[], tally: Tally): Promise<void> {
  const home = freshDir(root, 'red-pty-home-');
  const cwd = freshDir(root, 'red-pty-project-');
  const env = { [ENV_SECRET.name]: ENV_SECRET.value };
  const term = await startPty(['--autosave', 'off'], { home, cwd, env });
  for (const sample of samples) {
    if (sample.text.includes('\n')) await term.paste(sample.text);
    else await term.line(sample.text);
    tally.add('secretsPushed');
  }
  await term.line(`and ${ENV_SECRET.value} again`);
  const code = await term.quit();
  if (code !== 0) tally.fail('runsFailed', `terminal: exit ${code}: ${term.screen().slice(-300)}`);
  const files = filesUnder(home);
  if (!files.some((f) => f.path.endsWith('/history'))) tally.fail('runsFailed', 'terminal: no history file was written');
  search(tally, [...samples, { format: 'environment value', text: '', secret: ENV_SECRET.value }], files, 'terminal');
}

/** Runs both corpora; figures: formats, secrets found on disk (must be 0), ordinary lines altered. */
export async function run(options: RedactionOptions): Promise<PartResult> {
  const samples = secretCorpus();
  const ordinary = ordinaryCorpus();
  const tally = new Tally('redaction', { secretFormats: new Set(samples.map((s) => s.format)).size + 1, secretsPushed: 0, ordinaryLines: ordinary.length, ordinaryLinesAltered: 0 }, [
    'secretsFoundOnDisk',
    'toolArgumentsBroken',
    'ordinaryOverOnePercent',
    'runsFailed',
  ]);
  const rng = createRandom(options.seed ?? 1);
  await throughLibrary(options.root, samples, rng, tally);
  await throughBinary(options.root, samples, tally);
  await throughTerminal(options.root, samples, tally);

  // Ordinary text: through the redactor, and stored and read back through the library.
  const redact = createRedactor({ env: { HOME: '/home/ann', PATH: '/usr/bin:/bin', [ENV_SECRET.name]: ENV_SECRET.value } });
  const home = freshDir(options.root, 'red-ord-home-');
  const manager = await openSessions({ home, cwd: freshDir(options.root, 'red-ord-project-'), env: {} });
  const session = await manager.create();
  for (const line of ordinary) await session.append({ role: 'user', content: line });
  await session.close();
  const stored = (await manager.read(session.id)).messages.map((m) => m.content);
  ordinary.forEach((line, i) => {
    if (redact(line) !== line || stored[i] !== line) {
      tally.add('ordinaryLinesAltered');
      tally.notes.push(`altered: ${line.slice(0, 80)} → ${redact(line).slice(0, 80)}`);
    }
  });
  if (tally.figures.ordinaryLinesAltered! * 100 >= ordinary.length) tally.add('ordinaryOverOnePercent');
  return tally.result();
}
