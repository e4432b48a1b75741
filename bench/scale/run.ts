/**
 * `npm run bench:scale [-- --quick] [--sizes 10000,100000]`: the scale bench (scale.ts); prints
 * the table, writes `bench/scale-results.json` and the cost curve `bench/scale-curve.svg`.
 * Full: 10,000, 100,000 and 1,000,000 sessions. `--quick`: 2,000 and 20,000 (CI size).
 * `--once`: every query run once, no warm-up (the test's check that nothing rotted); `--out DIR`:
 * the two files there instead.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTable } from '../harness.js';
import { plotSvg } from './plot.js';
import { runScale } from './scale.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const given = args.indexOf('--sizes');
const sizes = given >= 0
  ? (args[given + 1] ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0)
  : quick ? [2_000, 20_000] : [10_000, 100_000, 1_000_000];
if (sizes.length === 0) {
  process.stderr.write('bench:scale: --sizes wants session counts separated by commas, e.g. --sizes 2000,20000\n');
  process.exit(2);
}
const options = args.includes('--once') ? { runs: 1, warmup: 0 } : quick ? { runs: 5, warmup: 1 } : { runs: 9, warmup: 2 };
const dir = args.indexOf('--out') >= 0 ? args[args.indexOf('--out') + 1] : undefined;
// Made before the run, so that a long run's figures are never lost to a directory missing at the end.
if (dir) await mkdir(dir, { recursive: true });
const results = await runScale(sizes, options, (line) => process.stderr.write(`${line}\n`));
const out = (name: string): string => (dir ? join(dir, name) : fileURLToPath(new URL(`../../../bench/${name}`, import.meta.url)));
await writeFile(out('scale-results.json'), `${JSON.stringify({ ...results, quick }, null, 2)}\n`);
await writeFile(out('scale-curve.svg'), plotSvg(results.rows));
process.stdout.write(`${formatTable(results.rows)}\n\n${results.note}${quick ? ' (quick sizes)' : ''}\nbuild phases (ms): ${JSON.stringify(results.phases)}\n`);
