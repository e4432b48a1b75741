/**
 * The peers on the same server and the same 200-writer workload: LangGraph's PostgresSaver, a
 * turn being `put` (the messages channel grown by the turn, as a chat step grows it) and
 * `getTuple` (read back). Its tables live in a database of their own on the same server, so their
 * growth per message is its bytes on disk. Its pool is the saver's default, as a host gets it.
 * And `@langchain/community`'s PostgresChatMessageHistory, a turn being `addMessage` and the
 * `getMessages` that reads the history back: one history per writer over one shared pool (pg's
 * default size), as a host shares its pool; its table in a database of its own likewise.
 *
 * Like for like with chatkeep's rounds (writers.ts): each peer's pool is opened to its size before
 * its clock starts (as chatkeep's connections are, its locks taken), and its run starts from a
 * CHECKPOINT, so that neither a connection's start nor a checkpoint's flushing lands in its figures
 * by chance.
 */
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { uuid6, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { PostgresChatMessageHistory } from '@langchain/community/stores/message/postgres';
import { createDatabase, runSql } from '../../test/helpers/postgres.js';
import { TURNS, WRITERS, summary, turnText } from './writers.js';
import type { Workload } from './workload.js';

/** pg's default pool size: the peers' pools are as a host gets them. */
const PEER_POOL = 10;

/** Every connection of a peer's pool opened (`call` takes one), then a CHECKPOINT: the clock starts after. */
async function readied(adminUrl: string, call: () => Promise<unknown>): Promise<void> {
  await Promise.all(Array.from({ length: PEER_POOL }, call));
  await runSql(adminUrl, 'CHECKPOINT');
}

/** The database's size, tables, indexes and TOAST together. */
async function databaseBytes(url: string): Promise<number> {
  const [r] = await runSql<{ bytes: string }>(url, 'SELECT pg_database_size(current_database()) AS bytes');
  return Number(r!.bytes);
}

export async function langGraphWriters(adminUrl: string): Promise<Workload & { resumed: number }> {
  const url = await createDatabase(adminUrl);
  const saver = PostgresSaver.fromConnString(url);
  try {
    await saver.setup();
    await readied(adminUrl, () => saver.getTuple({ configurable: { thread_id: 'none', checkpoint_ns: '' } }));
    const before = await databaseBytes(url);
    const latencies: number[] = [];
    const start = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
      const messages: BaseMessage[] = [];
      let parent: string | undefined;
      for (let k = 1; k <= TURNS; k++) {
        const text = turnText(w, k);
        messages.push(k % 2 ? new HumanMessage({ content: text, id: `m-${w}-${k}` }) : new AIMessage({ content: text, id: `m-${w}-${k}` }));
        const checkpoint: Checkpoint = { v: 4, id: uuid6(-1), ts: new Date().toISOString(), channel_values: { messages: [...messages] }, channel_versions: { messages: k }, versions_seen: {} };
        const at = performance.now();
        const config = await saver.put({ configurable: { thread_id: `w${w}`, checkpoint_ns: '', ...(parent ? { checkpoint_id: parent } : {}) } }, checkpoint, { source: 'loop', step: k, parents: {} }, { messages: k });
        parent = config.configurable?.checkpoint_id as string;
        await saver.getTuple(config);
        latencies.push(performance.now() - at);
      }
    }));
    const wallMs = performance.now() - start;
    const bytes = (await databaseBytes(url)) - before;
    const last = await saver.getTuple({ configurable: { thread_id: 'w0', checkpoint_ns: '' } });
    const resumed = (last?.checkpoint.channel_values.messages as BaseMessage[] | undefined)?.length ?? -1;
    return { ...summary(latencies, wallMs), bytesPerMessage: bytes / (WRITERS * TURNS), resumed };
  } finally {
    await saver.end();
  }
}

export async function langChainHistoryWriters(adminUrl: string): Promise<Workload & { resumed: number }> {
  const url = await createDatabase(adminUrl);
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: PEER_POOL });
  const history = (w: number): PostgresChatMessageHistory => new PostgresChatMessageHistory({ sessionId: `w${w}`, pool });
  try {
    // Its table made once before the clock starts (200 first calls at once would race to create it).
    await history(-1).getMessages();
    await readied(adminUrl, () => history(-1).getMessages());
    const before = await databaseBytes(url);
    const latencies: number[] = [];
    const start = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
      const h = history(w);
      for (let k = 1; k <= TURNS; k++) {
        const text = turnText(w, k);
        const at = performance.now();
        await h.addMessage(k % 2 ? new HumanMessage(text) : new AIMessage(text));
        await h.getMessages();
        latencies.push(performance.now() - at);
      }
    }));
    const wallMs = performance.now() - start;
    const bytes = (await databaseBytes(url)) - before;
    const resumed = (await history(0).getMessages()).filter((m, i) => m.content === turnText(0, i + 1)).length;
    return { ...summary(latencies, wallMs), bytesPerMessage: bytes / (WRITERS * TURNS), resumed };
  } finally {
    await pool.end();
  }
}
