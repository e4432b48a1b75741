/**
 * Full-text search (docs/design.md §18): a one-word query over many sessions, beside the floor of
 * listing them and one `indexOf` scan of all their text; the same typed one character at a time
 * (the session browser's per-keystroke search); a word in nearly every message; the first search
 * of a process, which reads the index file.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fold } from '../src/search/fold.js';
import { searchableMessages } from '../src/search/rank.js';
import type { BenchConfig } from './config.js';
import { plantedProject, RARE } from './planted.js';
import { measure, measurePair, row, type BenchRow } from './harness.js';
import { median } from '../measure/median.js';
import { layout } from '../src/store/file/layout.js';

/** One of the generated words: in nearly every message, the worst case for counting hits. */
const COMMON = 'journal';

export async function benchSearch(config: BenchConfig, n: number): Promise<BenchRow[]> {
  const { manager, dir, reused } = await plantedProject(config, n);
  // The first search builds the index (timed once: it reads every session). A kept project's
  // index was built by the run that wrote it: that row is measured once, there.
  // CPU time beside wall: on a shared machine the build and its floor, minutes apart, meet different loads.
  let start = performance.now();
  let cpu = process.cpuUsage();
  const built = await manager.search(RARE);
  const buildMs = performance.now() - start;
  const buildCpu = cpuSeconds(cpu);
  const building = built.index[0]?.state === 'missing';
  if ((!building && !reused) || built.total === 0) throw new Error(`search bench: unexpected first search ${JSON.stringify(built.index)}`);
  // The floor: every message's folded text in one file, as the index holds it; read it and count the hits.
  // Reading every session (and folding its text): what building the index cannot do without.
  // Kept beside a kept project (at 100,000 sessions it takes minutes to make).
  const floorFile = join(dir, 'all-text.txt');
  start = performance.now();
  cpu = process.cpuUsage();
  const rows = await manager.list();
  let readMs = 0;
  let readCpu = 0;
  if (building || !existsSync(floorFile)) {
    let text = '';
    for (const r of rows) {
      const snapshot = await manager.read(r.id);
      for (const m of searchableMessages(snapshot)) text += `${fold(m.content)}\0`;
    }
    readMs = performance.now() - start;
    readCpu = cpuSeconds(cpu);
    await writeFile(floorFile, text);
  }
  const inMemory = await readFile(floorFile);
  let messages = 0;
  for (let at = inMemory.indexOf(0); at !== -1; at = inMemory.indexOf(0, at + 1)) messages++;
  const mb = (inMemory.length / 2 ** 20).toFixed(0);
  const size = `${messages.toLocaleString('en-US')} messages, ${mb} MB of text`;
  // A search shows listing rows and must know which sessions changed: the least it can do is list
  // them and scan all the text once. The first search of a process reads the text too; later
  // ones (the session browser's, per keystroke) find it in memory, as their floor does.
  const scanOf = (bytes: Buffer, word: string): number => {
    const needle = Buffer.from(word);
    let hits = 0;
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) hits++;
    return hits;
  };
  const floorOf = (word: string, read: boolean) => async () => {
    await manager.list();
    return scanOf(read ? await readFile(floorFile) : inMemory, word);
  };
  // Another query first, so that the timed one scans the whole text (not narrowed from its own last hits).
  const elsewhere = () => manager.search('qqqq');
  const rare = await measurePair(() => manager.search(RARE), floorOf(RARE, false), config, elsewhere);
  const common = await measurePair(() => manager.search(COMMON), floorOf(COMMON, false), { runs: 3, warmup: 1 }, elsewhere);
  // The first search of a process: the index file touched before each run, so that the copy kept
  // in memory is not the file any more and the index is read from disk (the page cache), as a new process reads it.
  const indexFile = layout.searchIndex(layout.project(manager.store.location, manager.project.key));
  const touchIndex = async (): Promise<void> => {
    const at = new Date();
    await utimes(indexFile, at, at);
  };
  const cold = await measurePair(() => manager.search(RARE), floorOf(RARE, true), config, touchIndex);
  // Typed one character at a time, as the browser searches: each keystroke narrows from the last one's hits.
  const keystrokes: number[] = [];
  const listings: number[] = [];
  for (let run = 0; run < config.runs; run++) {
    await elsewhere();
    for (let i = 1; i <= RARE.length; i++) {
      let start = performance.now();
      await manager.search(RARE.slice(0, i));
      keystrokes.push(performance.now() - start);
      start = performance.now();
      await manager.list();
      listings.push(performance.now() - start);
    }
  }
  const floor = 'floor: list + indexOf scan of all the text in memory';
  // After a chat in one session: the next search reads that session again and rewrites the index.
  const id = rows[0]!.id;
  const touch = async (): Promise<void> => {
    const session = await manager.resume(id);
    await session.append({ role: 'user', content: 'one more message' });
    await session.close();
  };
  const stale = await measure(() => manager.search(RARE), { runs: 3, warmup: 1 }, touch);
  if (config.keep === undefined) await rm(floorFile);
  const out = [
    row('search: one-word query', rows.length, rare.ms, rare.floorMs, 1.5, { limitMs: 50, note: `${size}; ${floor}` }),
    row('search as typed: per keystroke', rows.length, median(keystrokes), median(listings), 1.5, {
      limitMs: 50,
      note: `"${RARE}" typed one character at a time, each narrowed from the last; floor: list`,
    }),
    row('search: a word in nearly every message', rows.length, common.ms, common.floorMs, 3, { limitMs: 300, note: `every hit counted; ${floor}` }),
    row('  search: first of a process', rows.length, cold.ms, cold.floorMs, 1.5, { informational: true, note: 'reads the index file; floor: list + read and scan one file of all the text' }),
    row('  search after one session changed', rows.length, stale, rare.floorMs, 1.5, { informational: true, note: 'reads it again, rewrites search.recent.idx' }),
  ];
  if (building) out.push(row('  search: building the index', rows.length, buildMs, readMs, 2, {
    informational: true,
    note: `once; floor: reading every session and folding its text; CPU ${buildCpu.toFixed(1)} s beside ${readCpu.toFixed(1)} s (${(buildCpu / readCpu).toFixed(2)}×)`,
  }));
  return out;
}

/** CPU seconds (user and system) of this process since `since`. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}
