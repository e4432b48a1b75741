/**
 * Damaged files: each case damages one file of a real session (snapshot + journal) or of its
 * project, then resumes it with the real binary and lists it. Whatever can be loaded must be,
 * the damaged bytes must be kept (renamed `*.corrupt-<time>`, or left untouched for a newer
 * schemaVersion), the user told in one line, and the repaired session must take new messages.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSessions } from '../src/index.js';
import { startChild, writeScript } from './children.js';
import { Tally, type PartResult } from './part.js';
import { freshDir, runPiped } from './proc.js';
import { layout } from '../src/store/file/layout.js';

/** Where to run. */
export interface DamagedOptions {
  root: string;
  /** Run only these cases (by name); all by default. */
  only?: string[];
}

/** Paths of the seeded session. */
interface Seeded {
  home: string;
  cwd: string;
  id: string;
  /** The session's directory. */
  dir: string;
  /** The project's directory. */
  projectDir: string;
}

/** One kind of damage. `file` is the damaged path (relative to the session or project dir). */
interface DamageCase {
  name: string;
  scope: 'session' | 'project';
  file: string;
  damage(path: string): void;
  /** Messages that must be there after resuming. */
  expect: string[];
  /** A cut snapshot: the messages before the cut are salvaged too, so more than `expect` loads. */
  salvaged?: boolean;
  /** Newer schemaVersion: refused with exit 2, file left byte-identical. */
  future?: boolean;
  /** Not damage (nothing to keep or tell), only something to survive. */
  benign?: boolean;
}

const SNAPSHOT = ['snap 1', 'snap 2', 'snap 3', 'snap 4'];
const JOURNAL = ['journal 1', 'journal 2'];
const ALL = [...SNAPSHOT, ...JOURNAL];

function editSnapshot(path: string, edit: (json: Record<string, unknown>) => void): void {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { json: Record<string, unknown> };
  edit(doc.json);
  writeFileSync(path, JSON.stringify(doc));
}

function replaceWithDirectory(path: string): void {
  rmSync(path, { force: true });
  mkdirSync(path);
  writeFileSync(join(path, 'inside.txt'), 'someone put a directory here\n');
}

/** Every case, by the file it damages. */
export const CASES: DamageCase[] = [
  { name: 'truncated snapshot', scope: 'session', file: 'session.json', damage: (p) => truncateSync(p, Math.floor(statSync(p).size * 0.6)), expect: [SNAPSHOT[0]!, ...JOURNAL], salvaged: true },
  { name: 'binary garbage snapshot', scope: 'session', file: 'session.json', damage: (p) => writeFileSync(p, Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0x80, 0x0a, 0xc3])), expect: JOURNAL },
  { name: 'empty snapshot', scope: 'session', file: 'session.json', damage: (p) => writeFileSync(p, ''), expect: JOURNAL },
  { name: 'directory for snapshot', scope: 'session', file: 'session.json', damage: replaceWithDirectory, expect: JOURNAL },
  { name: 'snapshot fails schema', scope: 'session', file: 'session.json', damage: (p) => editSnapshot(p, (j) => (j.messages = 'not a list')), expect: JOURNAL },
  // Its messages fit the schema: salvaged whole, with the journal's (salvage.ts).
  { name: 'snapshot wrong types', scope: 'session', file: 'session.json', damage: (p) => editSnapshot(p, (j) => (j.stats = { messageCount: -1 })), expect: ALL },
  { name: 'future schemaVersion', scope: 'session', file: 'session.json', damage: (p) => editSnapshot(p, (j) => (j.schemaVersion = 99)), expect: [], future: true },
  {
    name: 'garbage mid-journal',
    scope: 'session',
    file: 'journal.jsonl',
    damage: (p) => {
      const lines = readFileSync(p, 'utf8').split('\n');
      lines.splice(1, 0, '\u0000\u00ffnot json {"seq":', '{"seq":"x","ts":1,"type":"message","payload":{}}');
      writeFileSync(p, lines.join('\n'));
    },
    expect: ALL,
  },
  { name: 'empty journal', scope: 'session', file: 'journal.jsonl', damage: (p) => writeFileSync(p, ''), expect: SNAPSHOT, benign: true },
  { name: 'directory for journal', scope: 'session', file: 'journal.jsonl', damage: replaceWithDirectory, expect: SNAPSHOT },
  { name: 'damaged index', scope: 'project', file: 'index.json', damage: (p) => writeFileSync(p, '{"format":"chatkeep.index","rows":[{"id":'), expect: ALL },
  { name: 'index fails schema', scope: 'project', file: 'index.json', damage: (p) => writeFileSync(p, '{"format":"chatkeep.index","version":1,"sessionsMtimeMs":"x","rows":7}'), expect: ALL },
  // The tail of writes after the sorted body (docs/design.md §8): a line cut short is no record; a whole line that is none damages the index.
  { name: 'torn index tail', scope: 'project', file: 'index.json', damage: (p) => appendFileSync(p, '{"serial":1,"rows":[{"id":'), expect: ALL, benign: true },
  { name: 'garbage index tail', scope: 'project', file: 'index.json', damage: (p) => appendFileSync(p, '{"serial":"x","rows":7}\n'), expect: ALL },
  { name: 'empty index', scope: 'project', file: 'index.json', damage: (p) => writeFileSync(p, ''), expect: ALL },
  { name: 'missing index', scope: 'project', file: 'index.json', damage: (p) => rmSync(p, { force: true }), expect: ALL, benign: true },
  { name: 'directory for index', scope: 'project', file: 'index.json', damage: replaceWithDirectory, expect: ALL },
  { name: 'damaged project.json', scope: 'project', file: 'project.json', damage: (p) => writeFileSync(p, '{"path": 42'), expect: ALL },
];

const SEED = `
const { openSessions } = await import(LIB);
const [home, cwd] = process.argv.slice(2);
const sessions = await openSessions({ home, cwd });
const session = await sessions.create();
for (const content of ${JSON.stringify(SNAPSHOT)}) await session.append({ role: 'user', content });
await session.save();
for (const content of ${JSON.stringify(JOURNAL)}) await session.append({ role: 'user', content });
await sessions.list();
console.log(session.id);
// Ends without close(): the last two messages live only in the journal, as after a crash.
process.exit(0);
`;

/** Runs every damage case; figures count what was lost, kept and told. */
export async function run(options: DamagedOptions): Promise<PartResult> {
  const tally = new Tally('damaged', { cases: 0, casesRecovered: 0 }, [
    'damagedBytesLost',
    'messagesNotRecovered',
    'usersNotTold',
    'wrongExitCodes',
    'crashes',
    'listingsBroken',
    'writesAfterRepairLost',
  ]);
  const script = writeScript(options.root, 'seed', SEED);
  for (const damage of CASES) {
    if (options.only && !options.only.includes(damage.name)) continue;
    tally.add('cases');
    const before = tally.failures.length;
    try {
      await runCase(options.root, script, damage, tally);
    } catch (err) {
      tally.fail('crashes', `${damage.name}: ${String(err)}`);
    }
    if (tally.failures.length === before) tally.add('casesRecovered');
  }
  return tally.result();
}

async function seed(root: string, script: string): Promise<Seeded> {
  const home = freshDir(root, 'dmg-home-');
  const cwd = freshDir(root, 'dmg-project-');
  const child = startChild(script, [home, cwd]);
  const id = await child.next();
  await child.exited;
  const manager = await openSessions({ home, cwd });
  const projectDir = layout.project(manager.store.location, manager.project.key);
  return { home, cwd, id, dir: join(projectDir, 'sessions', id), projectDir };
}

/** What sits at `path`: a file's bytes, or a directory's listing with its files' bytes. */
function capture(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) {
      return readdirSync(path)
        .sort()
        .map((name) => `${name}:${readFileSync(join(path, name)).toString('base64')}`)
        .join('|');
    }
    return readFileSync(path).toString('base64');
  } catch {
    return undefined;
  }
}

const STACK = /\n\s+at /;

async function runCase(root: string, script: string, damage: DamageCase, tally: Tally): Promise<void> {
  const s = await seed(root, script);
  const base = damage.scope === 'session' ? s.dir : s.projectDir;
  const path = join(base, damage.file);
  damage.damage(path);
  const damagedBytes = capture(path);
  const label = damage.name;

  // The listing must still show the session, and never crash.
  const list = await runPiped(['sessions', 'list', '--json'], '', { home: s.home, cwd: s.cwd });
  const listed = list.code === 0 ? (JSON.parse(list.stdout) as { id: string; messageCount: number }[]) : [];
  const row0 = listed.find((row) => row.id === s.id);
  if (list.code !== 0 || STACK.test(list.stderr) || !row0) {
    tally.fail('listingsBroken', `${label}: sessions list exit ${list.code}: ${list.stderr.trim() || list.stdout.slice(0, 300)}`);
  } else if (!damage.future && !damage.salvaged && row0.messageCount !== damage.expect.length) {
    // The listing reads the same files: it counts what resuming will load.
    tally.fail('listingsBroken', `${label}: listed with ${row0.messageCount} messages, ${damage.expect.length} can be loaded`);
  }

  const resumed = await runPiped(['--session-id', s.id, '--autosave', 'off'], 'after repair\n/quit\n', { home: s.home, cwd: s.cwd });
  if (STACK.test(resumed.stderr) || resumed.code === 1) tally.fail('crashes', `${label}: exit ${resumed.code}: ${resumed.stderr.trim()}`);

  if (damage.future) {
    const lines = resumed.stderr.trim().split('\n');
    if (resumed.code !== 2) tally.fail('wrongExitCodes', `${label}: exit ${resumed.code}, expected 2`);
    if (lines.length !== 1 || !/schemaVersion 99/.test(lines[0]!)) tally.fail('usersNotTold', `${label}: ${resumed.stderr.trim()}`);
    if (capture(path) !== damagedBytes) tally.fail('damagedBytesLost', `${label}: the newer file was changed`);
    if (readdirSync(base).some((n) => n.includes('.corrupt-'))) tally.fail('damagedBytesLost', `${label}: the newer file was treated as damage`);
    const show = await runPiped(['sessions', 'show', s.id], '', { home: s.home, cwd: s.cwd });
    if (show.code !== 2 || show.stderr.trim().split('\n').length !== 1) tally.fail('wrongExitCodes', `${label}: sessions show exit ${show.code}: ${show.stderr.trim()}`);
    return;
  }
  if (resumed.code !== 0) tally.fail('wrongExitCodes', `${label}: exit ${resumed.code}: ${resumed.stderr.trim()}`);

  // A listing after the resume (the index cases are repaired here).
  const after = await runPiped(['sessions', 'list', '--json'], '', { home: s.home, cwd: s.cwd });
  const row = after.code === 0 ? (JSON.parse(after.stdout) as { id: string; messageCount: number }[]).find((r) => r.id === s.id) : undefined;
  if (!row) tally.fail('listingsBroken', `${label}: after resuming, sessions list exit ${after.code}: ${after.stderr.trim()}`);

  const snapshot = await (await openSessions({ home: s.home, cwd: s.cwd })).read(s.id);
  const contents = snapshot.messages.map((m) => m.content);
  for (const want of damage.expect) {
    if (!contents.includes(want)) tally.fail('messagesNotRecovered', `${label}: "${want}" missing; loaded ${JSON.stringify(contents)}`);
  }
  // What was listed before the resume is what it loaded (the two after it are the repair's turn).
  if (damage.salvaged && row0 && row0.messageCount !== contents.length - 2) {
    tally.fail('listingsBroken', `${label}: listed with ${row0.messageCount} messages, ${contents.length - 2} loaded`);
  }
  if (!contents.includes('after repair') || !contents.some((c) => c.startsWith('Echo: after repair'))) {
    tally.fail('writesAfterRepairLost', `${label}: the message typed after the repair is missing: ${JSON.stringify(contents)}`);
  }
  if (damage.benign) return;

  // The damaged bytes: kept whole under `<file>.corrupt-<time>` (or, for the index, which is
  // only a cache, possibly left untouched where it was).
  const asides = readdirSync(base).filter((n) => n.startsWith(`${damage.file}.corrupt-`));
  const untouched = damage.file === 'index.json' && capture(path) === damagedBytes;
  if (!untouched && !asides.some((n) => capture(join(base, n)) === damagedBytes)) {
    tally.fail('damagedBytesLost', `${label}: no ${damage.file}.corrupt-* holds the damaged bytes (found ${asides.join(', ') || 'none'})`);
  }
  // Told, in one line naming where the damaged file went (for the session's own files, on resume).
  if (damage.scope === 'session') {
    const told = resumed.stderr.split('\n').some((line) => /damaged/i.test(line) && line.includes('.corrupt-'));
    if (!told) tally.fail('usersNotTold', `${label}: resume said: ${resumed.stderr.trim()}`);
  }
}
