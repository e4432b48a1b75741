/**
 * `npm run torture`: every part at full size, one line of figures each, `torture/results.json`,
 * and a non-zero exit when a must-be-zero figure is not zero.
 *
 *   npm run torture -- [--quick] [--only kill9,races] [--seed N] [--keep]
 *
 * Parts: kill9, races, damaged, hostile, redaction, slow-holder, hangup, liveness, hosts, thaw; on a PostgreSQL server
 * each starts for itself: pg-kill9, pg-hosts, pg-restart, pg-roles; behind a PgBouncer it starts: pg-pooler, pg-thaw.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatResult, nonZero, type PartResult } from './part.js';
import { ROOT } from './proc.js';
import * as kill9 from './kill9.js';
import * as races from './races.js';
import * as damaged from './damaged.js';
import * as hostile from './hostile.js';
import * as redaction from './redaction.js';
import * as slowHolder from './slow-holder.js';
import * as hangup from './hangup.js';
import * as liveness from './liveness.js';
import * as hosts from './hosts.js';
import { withPgBouncer, withPostgres } from './postgres-server.js';
import * as poolerRaces from './pooler-races.js';
import * as thaw from './thaw.js';
import * as pgHosts from './pg-hosts.js';
import * as pgRestart from './pg-restart.js';
import * as pgRoles from './pg-roles.js';
import { runPgAdversary } from './adversary/pg-part.js';

interface Part {
  name: string;
  run(root: string, quick: boolean, seed: number): Promise<PartResult>;
}

const PARTS: Part[] = [
  { name: 'kill9', run: (root, quick, seed) => kill9.run({ trials: quick ? 40 : 500, root, seed }) },
  {
    name: 'races',
    run: (root, quick, seed) =>
      races.run(quick ? { root, seed, creators: 50, lockRounds: 50, replRounds: 5, autosaveRuns: 2 } : { root, seed }),
  },
  { name: 'damaged', run: (root) => damaged.run({ root }) },
  { name: 'hostile', run: (root, quick, seed) => hostile.run(quick ? { root, seed, hugeLineMb: 2, fullDiskRuns: 4 } : { root, seed }) },
  { name: 'redaction', run: (root, _quick, seed) => redaction.run({ root, seed }) },
  { name: 'slow-holder', run: (root, quick, seed) => slowHolder.run({ root, seed, trials: quick ? 10 : 40 }) },
  { name: 'hangup', run: (root, quick, seed) => hangup.run({ root, seed, trials: quick ? 40 : 200 }) },
  { name: 'liveness', run: (root, quick, seed) => liveness.run({ root, seed, trials: quick ? 20 : 100 }) },
  { name: 'hosts', run: (root, quick, seed) => hosts.run({ root, seed, trials: quick ? 30 : 300 }) },
  {
    name: 'pg-kill9',
    run: (root, quick, seed) =>
      withPostgres(({ url }) => kill9.run({ part: 'pg-kill9', trials: quick ? 40 : 200, root, seed, store: url, moments: ['streaming'] })),
  },
  { name: 'thaw', run: (root, quick, seed) => thaw.run({ part: 'thaw', root, seed, trials: quick ? 10 : 40 }) },
  {
    name: 'pg-pooler',
    run: (root, quick, seed) => withPgBouncer((urls) => poolerRaces.run({ root, seed, ...urls, races: quick ? 20 : 100 })),
  },
  {
    name: 'pg-thaw',
    run: (root, quick, seed) => withPgBouncer(({ pooled }) => thaw.run({ part: 'pg-thaw', root, seed, store: pooled, trials: quick ? 10 : 40 })),
  },
  { name: 'pg-hosts', run: (root, quick, seed) => withPostgres(({ url }) => pgHosts.run({ root, url, seed, rounds: quick ? 10 : 100 })) },
  { name: 'pg-restart', run: (root, quick, seed) => withPostgres((server) => pgRestart.run({ root, server, seed, trials: quick ? 4 : 20 })) },
  {
    name: 'pg-roles',
    run: (root, quick, seed) => withPostgres(({ url }) => pgRoles.run({ root, url, seed, sessions: quick ? 5 : 50, cliProbes: quick ? 2 : 10 })),
  },
  // The part `adversary`: its PostgreSQL trials (row security by operation, squats) here; the
  // trials of the other stores join this entry.
  { name: 'adversary', run: (root, quick, seed) => withPostgres(({ url }) => runPgAdversary({ root, url, seed, rounds: quick ? 1 : 3 })) },
];

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      seed: { type: 'string', default: '1' },
      keep: { type: 'boolean', default: false },
    },
  });
  const only = values.only?.split(',').map((s) => s.trim());
  const seed = Number(values.seed);
  const root = mkdtempSync(join(tmpdir(), 'chatkeep-torture-'));
  const results: PartResult[] = [];
  let failed = false;
  for (const part of PARTS) {
    if (only && !only.includes(part.name)) continue;
    const dir = join(root, part.name);
    mkdirSync(dir);
    const result = await part.run(dir, values.quick === true, seed);
    results.push(result);
    console.log(formatResult(result));
    const bad = nonZero(result);
    if (bad.length > 0) {
      failed = true;
      console.log(`  NOT ZERO: ${bad.join(', ')}`);
      for (const failure of result.failures) console.log(`  - ${failure}`);
    }
  }
  const out = { date: new Date().toISOString(), node: process.version, quick: values.quick === true, seed, passed: !failed, results };
  writeFileSync(join(ROOT, 'torture', 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
  if (values.keep || failed) console.log(`data kept in ${root}`);
  else rmSync(root, { recursive: true, force: true });
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
