/**
 * Full-text search (issue 11 item 4): a one-word query over many sessions, beside the floor of
 * listing them and one `indexOf` scan over a single file holding all their text.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fold } from '../src/search/fold.js';
import { searchableMessages } from '../src/search/rank.js';
import type { BenchConfig } from './run.js';
import { manySessions, openProject } from './fixtures.js';
import { measure, measurePair, row, type BenchRow } from './harness.js';

/** A word planted in one session of 100 (the generated prose draws on ~45 words, each in nearly every message). */
const RARE = 'zanzibar';
/** One of the generated words: in nearly every message, the worst case for counting hits. */
const COMMON = 'journal';

let counter = 0;

export async function benchSearch(config: BenchConfig, n: number): Promise<BenchRow[]> {
  const dir = join(config.root, `search-${++counter}`);
  await mkdir(dir, { recursive: true });
  const home = join(dir, 'home');
  const cwd = join(dir, 'project');
  const { manager, template } = await openProject(home, cwd);
  await manySessions(manager, template, n - 1, (i, messages) => {
    const m = messages[i % messages.length]!;
    if (i % 100 === 0) m.content = `${m.content} and then Zanzibar came up`;
  });
  // The first search builds the index (timed once: it reads every session).
  let start = performance.now();
  const built = await manager.search(RARE);
  const buildMs = performance.now() - start;
  if (built.index[0]?.state !== 'missing' || built.total === 0) throw new Error(`search bench: unexpected first search ${JSON.stringify(built.index)}`);
  // The floor: every message's folded text in one file, as the index holds it; read it and count the hits.
  const rows = await manager.list();
  let text = '';
  let messages = 0;
  for (const r of rows) {
    const snapshot = await manager.read(r.id);
    for (const m of searchableMessages(snapshot)) {
      text += `${fold(m.content)}\0`;
      messages++;
    }
  }
  const floorFile = join(dir, 'all-text.txt');
  await writeFile(floorFile, text);
  // Counts the hits of `word` in the file of all the text.
  const floorScan = (word: string) => async () => {
    const bytes = await readFile(floorFile);
    const needle = Buffer.from(word);
    let hits = 0;
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) hits++;
    return hits;
  };
  const mb = (Buffer.byteLength(text) / 2 ** 20).toFixed(0);
  const size = `${messages.toLocaleString('en-US')} messages, ${mb} MB of text`;
  // A search shows listing rows and must know which sessions changed: the least it can do is list
  // them and scan all the text once. The bare scan is noted beside it.
  const floorOf = (word: string) => async () => {
    await manager.list();
    return floorScan(word)();
  };
  const rare = await measurePair(() => manager.search(RARE), floorOf(RARE), config);
  const bareScan = await measure(floorScan(RARE), config);
  const common = await measurePair(() => manager.search(COMMON), floorOf(COMMON), { runs: 3, warmup: 1 });
  const floor = 'floor: list + read and indexOf scan of one file of all the text';
  const bare = (ms: number): string => `${(ms / bareScan).toFixed(1)}× the bare scan`;
  // After a chat in one session: the next search reads that session again and rewrites the index.
  const id = rows[0]!.id;
  const touch = async (): Promise<void> => {
    const session = await manager.resume(id);
    await session.append({ role: 'user', content: 'one more message' });
    await session.close();
  };
  const stale = await measure(() => manager.search(RARE), { runs: 3, warmup: 1 }, touch);
  await rm(floorFile);
  return [
    row('search: one-word query', rows.length, rare.ms, rare.floorMs, 1.5, { limitMs: 100, note: `${size}; ${floor}; ${bare(rare.ms)}` }),
    row('  search: a word in nearly every message', rows.length, common.ms, common.floorMs, 1.5, {
      informational: true,
      note: `worst case: every hit counted; ${floor}`,
    }),
    row('  search after one session changed', rows.length, stale, rare.floorMs, 1.5, { informational: true, note: 'reads it again, rewrites search.recent.idx' }),
    row('  search: building the index', rows.length, buildMs, rare.floorMs, 1.5, { informational: true, note: 'once: reads every session' }),
  ];
}
