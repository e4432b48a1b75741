/**
 * `npm run bench [-- --quick]`: every operation of docs/design.md §22 beside its floor, measured in one
 * process run; prints the table and writes `bench/results.json`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from './config.js';
import { formatTable, type BenchRow } from './harness.js';
import { benchList, benchResume, benchTurn, benchSnapshot, benchMemory, benchStartup } from './cases.js';
import { TEN_MB_AVG_BYTES } from './data.js';
import { benchFirstRequest } from './first-request.js';
import { benchOneShot } from './one-shot.js';
import { benchSearch } from './search.js';
import { benchBrowser } from './browser.js';
import { benchLangGraph } from './langgraph.js';
import { benchAiSdk } from './ai-sdk.js';
import { benchPostgres } from './postgres.js';
import { benchImport } from './import.js';
import { benchIndexWrite } from './index-write.js';

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  // `--only import`: that one case (while working on it); the table then holds only its rows.
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const root = await mkdtemp(join(tmpdir(), 'chatkeep-bench-'));
  // `--keep DIR`: the listing, search and browser rows' projects written once there and reused (bench/planted.ts).
  const keep = process.argv.includes('--keep') ? resolve(process.argv[process.argv.indexOf('--keep') + 1] ?? '') : undefined;
  const config: BenchConfig = { quick, runs: quick ? 5 : 7, warmup: quick ? 1 : 2, root, ...(keep !== undefined ? { keep } : {}) };
  const rows: BenchRow[] = [];
  const started = Date.now();
  const step = async (label: string, fn: () => Promise<BenchRow[]>): Promise<void> => {
    if (only !== undefined && !label.includes(only)) return;
    process.stderr.write(`bench: ${label}…\n`);
    rows.push(...(await fn()));
  };
  try {
    await step('start to first prompt', () => benchStartup(config));
    await step('first request with a real provider', () => benchFirstRequest(config));
    await step('a one-shot run: one message, then exit', () => benchOneShot(config));
    // `--sessions N`: the listing rows at that one size (e.g. 100000, to see how it grows).
    const asked = process.argv.includes('--sessions') ? Number(process.argv[process.argv.indexOf('--sessions') + 1]) : undefined;
    const sized = asked !== undefined && Number.isInteger(asked) && asked > 0 ? asked : undefined;
    const listSizes = sized !== undefined ? [sized] : quick ? [100, 1_000, 2_000] : [100, 1_000, 10_000];
    for (const n of listSizes) await step(`list ${n} sessions`, () => benchList(config, n, n === listSizes.at(-1)));
    // `--sessions N` sizes the search and browser rows too (e.g. `--only search --sessions 100000`).
    const searchSize = sized ?? (quick ? 2_000 : 10_000);
    await step(`search ${searchSize} sessions`, () => benchSearch(config, searchSize));
    await step(`session browser over ${searchSize} sessions`, () => benchBrowser(config, searchSize));
    for (const n of quick ? [10, 1_000] : [10, 1_000, 10_000]) await step(`resume and one turn at ${n} messages`, async () => [
      ...(await benchResume(config, n, 300)),
      ...(await benchTurn(config, n)),
    ]);
    const big = quick ? 1_000 : 5_000;
    await step(`resume a ${quick ? '2' : '10'} MB session`, () => benchResume(config, big, TEN_MB_AVG_BYTES, { limitMs: 100, headline: true }));
    await step(`snapshot a ${quick ? '2' : '10'} MB session`, () => benchSnapshot(config, big));
    await step('peak memory resuming it', () => benchMemory(config, big));
    // `--sessions N` sizes the second index-write row (e.g. `--only 'snapshot write' --sessions 100000`).
    for (const n of [1_000, sized ?? (quick ? 10_000 : 100_000)]) await step(`snapshot write at ${n} sessions: index update`, () => benchIndexWrite(config, n));
    await step('import 1,000 Claude Code sessions', () => benchImport(config, 1_000, 100));
    const pgList = quick ? 2_000 : 10_000;
    await step(`PostgreSQL store: a turn, list ${pgList} sessions, load a ${quick ? '2' : '10'} MB session`, () => benchPostgres(config, pgList, big));
    await step('langgraph put+getTuple per step, beside PostgresSaver', () => benchLangGraph(config));
    await step('ai-sdk saveChat into a 1,000-message chat, beside the guide', () => benchAiSdk(config));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  console.log(formatTable(rows));
  const misses = rows.filter((r) => r.pass === false).length;
  console.log(
    `\n${rows.filter((r) => r.pass !== undefined).length - misses} PASS, ${misses} MISS · ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version} · ${quick ? 'quick' : 'full'} run in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (only !== undefined) return;
  const out = fileURLToPath(new URL('../../bench/results.json', import.meta.url));
  await writeFile(out, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
