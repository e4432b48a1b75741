/**
 * A snapshot write's update of index.json at a project of n sessions (docs/design.md §8): the
 * row appended to the tail, beside appending one row's line to a file and syncing it; and what
 * the whole rewrite costs that the tail's compaction does now and then (and every write did before).
 */
import { appendFile, mkdir, open, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexRow } from '../src/session/api/listing.js';
import { writeFileAtomic } from '../src/store/file/atomic-write.js';
import { indexBody } from '../src/store/file/index-head.js';
import { freshLog } from '../src/store/file/index-log.js';
import { updateIndexRow } from '../src/store/file/index-store.js';
import { layout } from '../src/store/file/layout.js';
import type { BenchConfig } from './config.js';
import { measure, measurePair, row, type BenchRow } from './harness.js';

const START = Date.UTC(2026, 10, 1);

/** A closed session's row as the store records it (about the size of a real one: ~340 bytes). */
function sessionRow(i: number, at = START + i * 60_000): IndexRow {
  return {
    id: `session-${String(20260000 + i)}-${String(i % 240000).padStart(6, '0')}`,
    title: `Refactor the ${i % 97} parser and fix the flaky test in module ${i % 31}`,
    createdAt: at - 3_600_000, updatedAt: at, messageCount: 2 + (i % 39), status: 'closed', project: '/home/user/work/project',
    journalSeq: 0, inputTokens: 1_200 + i, outputTokens: 800 + i, branch: 'main',
    byModel: [{ model: 'claude-sonnet-4', inputTokens: 1_200 + i, outputTokens: 800 + i }], titleSource: 'auto', archivedMessages: 0,
    snapshotStamp: `${4_096 + i}:${at}`,
  } as IndexRow;
}

export async function benchIndexWrite(config: BenchConfig, n: number): Promise<BenchRow[]> {
  const projectDir = join(config.root, `index-write-${n}`);
  await mkdir(projectDir, { recursive: true });
  const rows = Array.from({ length: n }, (_, i) => sessionRow(n - i));
  const body = indexBody(0, rows, freshLog());
  await writeFile(layout.index(projectDir), body);
  const floorPath = join(projectDir, 'floor.jsonl');
  let turn = 0;
  // Each write brings an older session to the top, as a resumed session's /save does.
  const write = async (): Promise<number> => updateIndexRow(projectDir, sessionRow(n - (turn % n), START + (n + ++turn) * 60_000));
  const floor = async (): Promise<void> => {
    await appendFile(floorPath, `${JSON.stringify(sessionRow(turn))}\n`);
    const handle = await open(floorPath, 'r');
    await handle.datasync();
    await handle.close();
  };
  const { ms, floorMs } = await measurePair(write, floor, config);
  // Writes through one whole cycle of the tail: the bytes each writes, the compaction's among them.
  let writes = 0;
  let bytes = 0;
  let largest = 0;
  const ino = (await stat(layout.index(projectDir))).ino;
  while (writes < 20_000 && (await stat(layout.index(projectDir))).ino === ino) {
    const written = await write();
    bytes += written;
    largest = Math.max(largest, written);
    writes++;
  }
  const appended = (bytes - largest) / Math.max(1, writes - 1);
  const mb = (Buffer.byteLength(body) / 2 ** 20).toFixed(1);
  const whole = await measure(() => writeFileAtomic(join(projectDir, 'whole.json'), indexBody(0, rows, freshLog())), { runs: Math.min(config.runs, 3), warmup: 0 });
  return [
    row(`snapshot write at ${n.toLocaleString('en-US')} sessions: index update`, n, ms, floorMs, 2, {
      note: `floor: append one row + fdatasync; ${appended.toFixed(0)} B appended a write; every ${writes} writes one rewrite of ${mb} MB: ${((bytes / writes) / 1024).toFixed(1)} KB a write on average`,
    }),
    row(`  the whole index rewritten (each compaction; every write before)`, n, whole, floorMs, 2, {
      informational: true,
      note: `for comparison: ${mb} MB written atomically`,
    }),
  ];
}
