/**
 * One thread's checkpoints as its graph events build them (src/session/api/graph-events.ts): the
 * one place those events have their effect, for a write as for a read of the journal back. It
 * keeps what PostgresSaver keeps: each checkpoint without its channel values, each channel's
 * value once per version (a checkpoint stores only the channels its step changed), and the
 * pending writes of each checkpoint by task and index.
 */
import type { FutureEvent } from '../../session/api/data.js';
import { graphEvents } from '../../session/api/graph-events.js';

/** A value as the saver's serializer made it: JSON text kept as text, anything else as base64. */
export type Stored = { type: string; text: string } | { type: string; base64: string };

export interface StoredCheckpoint {
  id: string;
  parentId?: string;
  /** The checkpoint without `channel_values`. */
  checkpoint: Stored;
  metadata: Stored;
}

export interface StoredWrite {
  taskId: string;
  idx: number;
  channel: string;
  value: Stored;
  taskPath: string;
}

/** A `checkpoint` event's payload. `value: null`: the channel was emptied at that version. */
export interface CheckpointPayload extends StoredCheckpoint {
  ns: string;
  blobs: { channel: string; version: string | number; value: Stored | null }[];
}

/** A `writes` event's payload: `idx` as stored (negative for the special channels, which replace). */
export interface WritesPayload {
  ns: string;
  checkpointId: string;
  writes: StoredWrite[];
}

const key = (...parts: (string | number)[]): string => JSON.stringify(parts.map(String));

export class ThreadIndex {
  /** Checkpoints by namespace, then id. */
  readonly checkpoints = new Map<string, Map<string, StoredCheckpoint>>();
  private readonly blobs = new Map<string, Stored | null>();
  private readonly writes = new Map<string, Map<string, StoredWrite>>();

  /** The index of the graph events kept in a session (`futureEvents`), in the order written. */
  static of(kept: readonly FutureEvent[] | undefined): ThreadIndex {
    const index = new ThreadIndex();
    for (const e of graphEvents(kept)) index.apply(e.type, (JSON.parse(e.line) as { payload: Record<string, unknown> }).payload);
    return index;
  }

  apply(type: string, payload: Record<string, unknown>): void {
    if (type === 'graph-checkpoint') this.putCheckpoint(payload as unknown as CheckpointPayload);
    else if (type === 'graph-writes') this.putWrites(payload as unknown as WritesPayload);
    else if (type === 'graph-checkpoints-deleted') this.clear();
  }

  /** The stored value of `channel` at `version` (null: emptied; undefined: never stored). */
  blob(ns: string, channel: string, version: string | number): Stored | null | undefined {
    return this.blobs.get(key(ns, channel, version));
  }

  /** A checkpoint's pending writes in the order live execution applies them (`writesSortKey`). */
  writesOf(ns: string, checkpointId: string): StoredWrite[] {
    return [...(this.writes.get(key(ns, checkpointId))?.values() ?? [])];
  }

  get empty(): boolean {
    return this.checkpoints.size === 0;
  }

  private putCheckpoint(p: CheckpointPayload): void {
    let inNs = this.checkpoints.get(p.ns);
    if (!inNs) this.checkpoints.set(p.ns, (inNs = new Map()));
    inNs.set(p.id, { id: p.id, checkpoint: p.checkpoint, metadata: p.metadata, ...(p.parentId !== undefined ? { parentId: p.parentId } : {}) });
    // A channel's value at a version never changes: the first stored stays (as PostgresSaver's ON CONFLICT DO NOTHING).
    for (const b of p.blobs) if (!this.blobs.has(key(p.ns, b.channel, b.version))) this.blobs.set(key(p.ns, b.channel, b.version), b.value);
  }

  private putWrites(p: WritesPayload): void {
    const k = key(p.ns, p.checkpointId);
    let stored = this.writes.get(k);
    if (!stored) this.writes.set(k, (stored = new Map()));
    for (const w of p.writes) {
      const inner = `${w.taskId},${w.idx}`;
      // A write of a regular channel is stored once; the special channels' (negative idx) replace.
      if (w.idx >= 0 && stored.has(inner)) continue;
      stored.set(inner, w);
    }
  }

  private clear(): void {
    this.checkpoints.clear();
    this.blobs.clear();
    this.writes.clear();
  }
}
