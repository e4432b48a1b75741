/**
 * A one-shot run as the peers are compared (a fresh process, one message, exit), with the real
 * `openai` provider against the local API server: `printf 'hi\n' | chatkeep --provider openai`.
 * Leaving must cost little beside arriving: the whole run's wall time is held against the same
 * run's spawn → last byte of the reply (every message is already durable by then), and the time
 * from the reply's first byte to the exit against a bare `node -e` fetch of the same reply's.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startApiServer } from './api-server.js';
import { openProject } from './fixtures.js';
import { row, type BenchRow } from './harness.js';
import { median } from '../measure/median.js';
import type { BenchConfig } from './config.js';
import { BIN } from './startup.js';

interface Timing {
  firstByte: number;
  lastByte: number;
  exit: number;
}

/** Spawns `args`, pipes `input`, and notes (from the spawn) when stdout's first and last bytes came and when it exited. */
async function timeRun(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input: string }): Promise<Timing> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let first: number | undefined;
  let last = 0;
  let stderr = '';
  child.stdout.on('data', () => {
    last = performance.now() - start;
    first ??= last;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  const exit = performance.now() - start;
  if (code !== 0 || first === undefined) throw new Error(`${args.join(' ')} exited ${code} (${first === undefined ? 'no reply' : 'a reply'}): ${stderr.trim()}`);
  return { firstByte: first, lastByte: last, exit };
}

const FLOOR =
  "fetch(process.argv[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }) }).then(async (r) => { for await (const part of r.body) process.stdout.write(part); })";

export async function benchOneShot(config: BenchConfig): Promise<BenchRow[]> {
  const server = await startApiServer();
  try {
    const dir = join(config.root, 'one-shot');
    const home = join(dir, 'home');
    const cwd = join(dir, 'project');
    await openProject(home, cwd);
    const env: NodeJS.ProcessEnv = { ...process.env, CHATKEEP_HOME: home, NO_COLOR: '1', OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: 'bench', ANTHROPIC_API_KEY: '' };
    const runs: Timing[] = [];
    const floors: Timing[] = [];
    for (let i = 0; i < config.warmup + config.runs; i++) {
      const op = timeRun([BIN, '--provider', 'openai'], { cwd, env, input: 'hi\n' });
      const timed = await op;
      const floorRun = timeRun(['-e', FLOOR, `${server.origin}/v1/chat/completions`], { cwd, env: process.env, input: '' });
      const floor = await floorRun;
      if (i < config.warmup) continue;
      runs.push(timed);
      floors.push(floor);
    }
    const wall = median(runs.map((r) => r.exit));
    const lastByte = median(runs.map((r) => r.lastByte));
    const leaving = median(runs.map((r) => r.exit - r.firstByte));
    const floorLeaving = median(floors.map((r) => r.exit - r.firstByte));
    return [
      row('one-shot: spawn → exit (openai)', 1, wall, lastByte, 1.1, {
        note: `floor: the same runs' spawn → last byte of the reply; a bare node fetch of the reply: ${median(floors.map((r) => r.exit)).toFixed(0)} ms`,
      }),
      row('  first byte of the reply → exit', 1, leaving, floorLeaving, 1.1, {
        informational: true,
        note: 'floor: the same, for a bare node -e fetch that prints the reply and ends',
      }),
    ];
  } finally {
    await server.close();
  }
}
