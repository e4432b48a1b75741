/**
 * The scale bench's server CPU (bench/scale/server-cpu.ts) counts every process under the server's
 * parent, however little each ran: the floor's 200 backends each run a few ms a round, less than a
 * clock tick, and a sum of ticks read them as nothing. Here a stand-in "server" (a node parent) has
 * 40 children that each burn 5 ms of their own CPU, measured by each child itself.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { serverCpuMs } from '../../../bench/scale/server-cpu.js';

const CHILDREN = 40;
const BURN_NS = 5_000_000;

/** A child: ready, then on a line burns BURN_NS of its own CPU (by its schedstat) and says how much it burnt, in ns. */
const CHILD = `echo ready; read go || exit; read t0 x < /proc/self/schedstat; t=$t0
while [ $((t - t0)) -lt ${BURN_NS} ]; do read t x < /proc/self/schedstat; done
echo $((t - t0)); read done`;

/** The parent: starts the children, relays "go" to each, prints their burns' sum; its children end with its stdin. */
const PARENT = `
const { spawn } = require('node:child_process');
const { createInterface } = require('node:readline');
const kids = Array.from({ length: ${CHILDREN} }, () => spawn('sh', ['-c', ${JSON.stringify(CHILD)}], { stdio: ['pipe', 'pipe', 'inherit'] }));
const lines = kids.map((k) => createInterface({ input: k.stdout })[Symbol.asyncIterator]());
(async () => {
  for (const l of lines) await l.next();
  console.log(JSON.stringify({ pids: kids.map((k) => k.pid) }));
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== 'go') break;
    kids.forEach((k) => k.stdin.write('go\\n'));
    let ns = 0;
    for (const l of lines) ns += Number((await l.next()).value);
    console.log(JSON.stringify({ ns }));
  }
  kids.forEach((k) => k.stdin.end());
})();
`;

describe('serverCpuMs', () => {
  it('counts children that each ran less than a clock tick', async () => {
    const parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['pipe', 'pipe', 'inherit'] });
    onTestFinished(() => {
      parent.stdin.end();
    });
    const out = createInterface({ input: parent.stdout })[Symbol.asyncIterator]();
    const next = async (): Promise<Record<string, unknown>> => JSON.parse(String((await out.next()).value)) as Record<string, unknown>;
    const { pids } = (await next()) as { pids: number[] };
    const before = serverCpuMs(pids[0]!);
    parent.stdin.write('go\n');
    const { ns } = (await next()) as { ns: number };
    const after = serverCpuMs(pids[0]!);
    const burnt = ns / 1e6;
    expect(burnt).toBeGreaterThanOrEqual((CHILDREN * BURN_NS) / 1e6);
    // Every child's burn is in the server's sum, and little else (the parent's relaying, each child's echo).
    expect(after - before).toBeGreaterThanOrEqual(burnt * 0.95);
    expect(after - before).toBeLessThan(burnt + 100);
  });
});
