/**
 * `ChatkeepSaver`: LangGraph's `BaseCheckpointSaver` over chatkeep sessions. A thread is a
 * session; each `put`, `putWrites` and `deleteThread` is one graph event journaled and
 * fdatasync'ed before it resolves (a kill -9 after it loses nothing it acknowledged), under the
 * thread's lock. What it stores and gives back is what PostgresSaver does: a checkpoint keeps the
 * values of the channels its step changed (`newVersions`), each channel's value once per version,
 * and the rest is found by version when read. The conversation in the messages channel is
 * stored as the session's messages too, so `show`, search, the browser and exports read it.
 */
// First: the optional peer whose absence index.ts reports by name (MissingPackageError).
import {
  BaseCheckpointSaver, TASKS, WRITES_IDX_MAP, compareWritesSortKeys, copyCheckpoint, getCheckpointId, maxChannelVersion, writesSortKey,
  type ChannelVersions, type Checkpoint, type CheckpointListOptions, type CheckpointMetadata, type CheckpointTuple, type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import type { RunnableConfig } from '@langchain/core/runnables';
import { isBaseMessage, type BaseMessage } from '@langchain/core/messages';
import { BadOptionError } from '../../session/api/errors.js';
import type { NewMessage } from '../../session/api/data.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { messageOf } from '../langchain/chat-history.js';
import { dump, load } from './stored-value.js';
import type { CheckpointPayload, StoredCheckpoint, ThreadIndex, WritesPayload } from './thread-index.js';
import { Threads, type HeldThread } from './threads.js';

export interface CheckpointSaverOptions {
  /** The serializer (default: LangGraph's own, `JsonPlusSerializer`). */
  serde?: SerializerProtocol;
  /** The channel whose messages are stored as the session's messages (default `messages`). */
  messagesChannel?: string;
}

/** The thread a config names (`configurable.thread_id`), for `call`; refused when there is none. */
function threadOf(config: RunnableConfig, call: string): string {
  const id: unknown = config.configurable?.thread_id;
  if (typeof id === 'string' && id !== '') return id;
  throw new BadOptionError(call, 'config.configurable.thread_id', 'needs the thread to write: pass { configurable: { thread_id } }');
}

const nsOf = (config: RunnableConfig): string => (config.configurable?.checkpoint_ns as string | undefined) ?? '';

export class ChatkeepSaver extends BaseCheckpointSaver {
  private readonly threads: Threads;
  private readonly messagesChannel: string;

  constructor(sessions: SessionManager, options: CheckpointSaverOptions = {}) {
    super(options.serde);
    this.threads = new Threads(sessions);
    this.messagesChannel = options.messagesChannel ?? 'messages';
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId: unknown = config.configurable?.thread_id;
    if (typeof threadId !== 'string') return undefined;
    const index = await this.threads.index(threadId);
    const inNs = index?.checkpoints.get(nsOf(config));
    if (!index || !inNs) return undefined;
    const wanted = getCheckpointId(config);
    const stored = wanted ? inNs.get(wanted) : inNs.get([...inNs.keys()].sort().at(-1)!);
    return stored && this.tupleOf(threadId, nsOf(config), stored, index);
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let limit = options.limit;
    const threadId: unknown = config.configurable?.thread_id;
    const ns = config.configurable?.checkpoint_ns as string | undefined;
    const only = getCheckpointId(config);
    const beforeId = before?.configurable?.checkpoint_id as string | undefined;
    const threadIds = typeof threadId === 'string' ? [threadId] : await this.threads.ids();
    for (const id of threadIds) {
      const index = await this.threads.index(id);
      for (const [checkpointNs, inNs] of index?.checkpoints ?? []) {
        if (ns !== undefined && checkpointNs !== ns) continue;
        for (const checkpointId of [...inNs.keys()].sort().reverse()) {
          if ((only && checkpointId !== only) || (beforeId && checkpointId >= beforeId)) continue;
          const stored = inNs.get(checkpointId)!;
          const metadata = await load<Record<string, unknown>>(this.serde, stored.metadata);
          if (filter && !Object.entries(filter).every(([k, v]) => metadata[k] === v)) continue;
          if (limit !== undefined && limit-- <= 0) return;
          yield this.tupleOf(id, checkpointNs, stored, index!);
        }
      }
    }
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const threadId = threadOf(config, 'put');
    const ns = nsOf(config);
    const { channel_values: values, ...rest } = copyCheckpoint(checkpoint);
    const parentId = config.configurable?.checkpoint_id as string | undefined;
    const payload: CheckpointPayload = {
      ns,
      id: checkpoint.id,
      ...(parentId ? { parentId } : {}),
      checkpoint: await dump(this.serde, rest),
      metadata: await dump(this.serde, metadata),
      blobs: await Promise.all(
        Object.entries(newVersions).map(async ([channel, version]) => ({ channel, version, value: channel in values ? await dump(this.serde, values[channel]) : null })),
      ),
    };
    await this.threads.write(threadId, async (thread) => {
      // Made before anything is written: a message chatkeep cannot keep refuses the put whole.
      const messages = this.newMessages(thread, checkpoint.channel_values[this.messagesChannel]);
      await Threads.journal(thread, 'graph-checkpoint', payload);
      // The checkpoint first: a crash before its messages are stored leaves them to the next put.
      if (messages.length > 0) {
        await thread.session.append(...(messages.map((m) => m.message) as [NewMessage, ...NewMessage[]]));
        for (const m of messages) thread.messageIds.add(m.id);
      }
    });
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = threadOf(config, 'putWrites');
    const checkpointId = getCheckpointId(config);
    if (!checkpointId) throw new BadOptionError('putWrites', 'config.configurable.checkpoint_id', 'needs the checkpoint the writes belong to: pass the config put returned');
    const payload: WritesPayload = {
      ns: nsOf(config),
      checkpointId,
      writes: await Promise.all(
        writes.map(async ([channel, value], idx) => ({ taskId, idx: WRITES_IDX_MAP[channel] ?? idx, channel, value: await dump(this.serde, value), taskPath: taskPath ?? '' })),
      ),
    };
    await this.threads.write(threadId, (thread) => Threads.journal(thread, 'graph-writes', payload));
  }

  /** Deletes the thread's checkpoints and writes (journaled: the session, its messages and what it held stay). */
  async deleteThread(threadId: string): Promise<void> {
    // A write: the thread is taken (refused while another process holds it), and a thread
    // without checkpoints is left as it is (one never stored is not made by deleting it).
    await this.threads.write(threadId, async (thread) => {
      if (!thread.index.empty) await Threads.journal(thread, 'graph-checkpoints-deleted', {});
    });
  }

  /** Lets go of every thread this saver holds (each saved, its lock released). */
  close(): Promise<void> {
    return this.threads.close();
  }

  /** The messages of the channel the session does not hold yet (by LangChain message id), as chatkeep messages. */
  private newMessages(thread: HeldThread, channel: unknown): { id: string; message: NewMessage }[] {
    if (!Array.isArray(channel)) return [];
    return channel.flatMap((m: unknown) => {
      if (!isBaseMessage(m) || typeof m.id !== 'string' || thread.messageIds.has(m.id)) return [];
      return [{ id: m.id, message: messageOf(m as BaseMessage) }];
    });
  }

  private async tupleOf(threadId: string, ns: string, stored: StoredCheckpoint, index: ThreadIndex): Promise<CheckpointTuple> {
    const checkpoint = await load<Checkpoint>(this.serde, stored.checkpoint);
    const values: Record<string, unknown> = {};
    for (const [channel, version] of Object.entries(checkpoint.channel_versions ?? {})) {
      const blob = index.blob(ns, channel, version);
      if (blob) values[channel] = await load(this.serde, blob);
    }
    checkpoint.channel_values = values;
    if (checkpoint.v < 4 && stored.parentId !== undefined) await this.migratePendingSends(checkpoint, ns, stored.parentId, index);
    const writes = index
      .writesOf(ns, stored.id)
      .map((w) => ({ w, key: writesSortKey(w.taskPath, w.taskId, w.idx) }))
      .sort((a, b) => compareWritesSortKeys(a.key, b.key));
    const at = (id: string): RunnableConfig => ({ configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } });
    return {
      config: at(stored.id),
      checkpoint,
      metadata: await load<CheckpointMetadata>(this.serde, stored.metadata),
      pendingWrites: await Promise.all(writes.map(async ({ w }) => [w.taskId, w.channel, await load(this.serde, w.value)] as [string, string, unknown])),
      ...(stored.parentId !== undefined ? { parentConfig: at(stored.parentId) } : {}),
    };
  }

  /** A checkpoint from before version 4 finds its pending sends in its parent's writes, as LangGraph's own savers do. */
  private async migratePendingSends(checkpoint: Checkpoint, ns: string, parentId: string, index: ThreadIndex): Promise<void> {
    const sends = index.writesOf(ns, parentId).filter((w) => w.channel === TASKS);
    checkpoint.channel_values[TASKS] = await Promise.all(sends.map((w) => load(this.serde, w.value)));
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }
}
