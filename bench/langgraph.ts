/**
 * `chatkeep/langgraph` beside LangGraph's own PostgresSaver on the same server: one graph step's
 * `put` (the messages channel grown by one message, as a chat step grows it) and the `getTuple`
 * that reads it back, on the file store and on the PostgreSQL store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { uuid6, type BaseCheckpointSaver, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { openSessions } from '../src/index.js';
import { openCheckpointSaver } from '../src/frameworks/langgraph/index.js';
import { createDatabase, startPostgres } from '../test/helpers/postgres.js';
import type { BenchRow, MeasureOptions } from './harness.js';
import { measurePair, row } from './harness.js';

/** A thread's next step on `saver`: put a checkpoint one message longer than the last, then read it back. */
function stepper(saver: BaseCheckpointSaver, threadId: string): () => Promise<void> {
  const messages: BaseMessage[] = [];
  let parent: string | undefined;
  return async () => {
    const n = messages.length;
    const text = `Step ${n}: ${'the weather in Oslo is sunny, the wind from the west. '.repeat(4)}`;
    messages.push(n % 2 === 0 ? new HumanMessage({ content: text, id: `m-${n}` }) : new AIMessage({ content: text, id: `m-${n}` }));
    const checkpoint: Checkpoint = { v: 4, id: uuid6(-1), ts: new Date().toISOString(), channel_values: { messages: [...messages] }, channel_versions: { messages: n + 1 }, versions_seen: {} };
    const config = await saver.put({ configurable: { thread_id: threadId, checkpoint_ns: '', ...(parent ? { checkpoint_id: parent } : {}) } }, checkpoint, { source: 'loop', step: n, parents: {} }, { messages: n + 1 });
    parent = config.configurable?.checkpoint_id as string;
    await saver.getTuple(config);
  };
}

export async function benchLangGraph(options: MeasureOptions): Promise<BenchRow[]> {
  const given = process.env.CHATKEEP_BENCH_DATABASE_URL;
  const server = given ? undefined : await startPostgres();
  const home = await mkdtemp(join(tmpdir(), 'chatkeep-bench-langgraph-'));
  try {
    const admin = given ?? server!.url;
    const floor = PostgresSaver.fromConnString(await createDatabase(admin));
    await floor.setup();
    const rows: BenchRow[] = [];
    const runs = { runs: options.runs * 6, warmup: options.warmup * 3 };
    for (const [label, store] of [
      ['langgraph put+getTuple per step (file store)', undefined],
      ['langgraph put+getTuple per step (PostgreSQL)', await createDatabase(admin)],
    ] as const) {
      const sessions = await openSessions({ home, cwd: home, ...(store ? { store } : {}) });
      const saver = await openCheckpointSaver(sessions);
      const pair = await measurePair(stepper(saver, `bench-${rows.length}`), stepper(floor, `floor-${rows.length}`), runs);
      await saver.close();
      rows.push(row(label, 1, pair.ms, pair.floorMs, 2, { note: "floor: LangGraph's PostgresSaver, same step, same server" }));
    }
    await floor.end();
    return rows;
  } finally {
    await rm(home, { recursive: true, force: true });
    await server?.stop();
  }
}
