/**
 * Spawn → the first request arriving at a local server speaking the provider's API, with the
 * real `openai` and `anthropic` providers: a new session (`printf 'hi\n' | chatkeep --provider
 * NAME`) and a resumed 1,000-message session. The floor is a bare `node -e` script that POSTs
 * the same body with `fetch` to the same server; the two are interleaved run by run.
 */
import { spawn } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startApiServer, type ApiServer } from './api-server.js';
import { makeMessages } from './data.js';
import { idAt, openProject, sessionRestorer, writeSession } from './fixtures.js';
import { row, type BenchRow } from './harness.js';
import { median } from '../measure/median.js';
import type { BenchConfig } from './config.js';
import { BIN } from './startup.js';

const APIS = ['openai', 'anthropic'] as const;
type Api = (typeof APIS)[number];

/** ms from spawning `args` until the server has the whole request; the child is waited for. */
async function timeRequest(server: ApiServer, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }) {
  const arrived = server.next();
  const start = performance.now();
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const first = await Promise.race([arrived, exited.then(() => undefined)]);
  const code = await exited;
  if (!first) throw new Error(`${args.join(' ')} exited ${code} without a request: ${stderr.trim()}`);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`);
  return { ms: first.at - start, body: first.body };
}

const FLOOR = "fetch(process.argv[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: require('node:fs').readFileSync(process.argv[2]) }).then((r) => r.text())";

export async function benchFirstRequest(config: BenchConfig): Promise<BenchRow[]> {
  const server = await startApiServer();
  const rows: BenchRow[] = [];
  try {
    for (const api of APIS) {
      for (const messages of [0, 1_000]) rows.push(await firstRequestRow(config, server, api, messages));
    }
  } finally {
    await server.close();
  }
  return rows;
}

async function firstRequestRow(config: BenchConfig, server: ApiServer, api: Api, count: number): Promise<BenchRow> {
  const dir = join(config.root, `first-request-${api}-${count}`);
  const home = join(dir, 'home');
  const cwd = join(dir, 'project');
  const { manager, template } = await openProject(home, cwd);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHATKEEP_HOME: home,
    NO_COLOR: '1',
    ...(api === 'openai'
      ? { OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: 'bench', ANTHROPIC_API_KEY: '' }
      : { ANTHROPIC_BASE_URL: server.origin, ANTHROPIC_API_KEY: 'bench', OPENAI_API_KEY: '' }),
  };
  let args = [BIN, '--provider', api];
  let restore = async (): Promise<void> => undefined;
  if (count > 0) {
    // A session that was kept with this provider, put back as it was before every run.
    const id = idAt(20_000_000);
    const provider = { name: api, model: api === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-5-5' };
    restore = await sessionRestorer(await writeSession(manager, { ...template, provider }, id, makeMessages(count, 300, 5)));
    args = [BIN, '--session-id', id];
  }
  const bodyFile = join(dir, 'body.json');
  const ops: number[] = [];
  const floors: number[] = [];
  for (let i = 0; i < config.warmup + config.runs; i++) {
    await restore();
    const op = await timeRequest(server, args, { cwd, env, input: 'hi\n' });
    if (i === 0) await writeFile(bodyFile, op.body);
    const floor = await timeRequest(server, ['-e', FLOOR, `${server.origin}/floor`, bodyFile], { cwd, env: process.env });
    if (i < config.warmup) continue;
    ops.push(op.ms);
    floors.push(floor.ms);
  }
  const kb = ((await stat(bodyFile)).size / 1024).toFixed(1);
  const name = count > 0 ? `first request, resumed session (${api})` : `first request, new session (${api})`;
  return row(name, count, median(ops), median(floors), 2, { note: `floor: node -e fetch of the same ${kb} kB body` });
}
