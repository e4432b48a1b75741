/**
 * Group commit across a store's held sessions (docs/design.md §9). Each held session appends on
 * its lock's connection, one batch at a time (event-log.ts); when many sessions of one store
 * append at once (an agent service's writers), each batch alone would be its own statement and
 * commit, and as many server backends taking turns on the cores. Here the sessions' batches that
 * arrive together go together as one statement (append-across.ts) on the lock connection of one of
 * them, each still fenced by its own epoch, each resolved only once that statement has committed;
 * at most GROUPS_IN_FLIGHT appends of the store are on their way at once, and the batches arriving
 * meanwhile wait for one of them to end, and go together likewise.
 *
 * Gathered, not sent as each arrives: writers that wake together (started by one call; a group's
 * writers told at once, each with its next turn) would otherwise send their first batches alone,
 * one on each free slot, and the rest would wait for both (the slowest 1% of 200 writers' appends
 * were those: docs/internals.md, "The writers' tail").
 *
 * What a batch is told: stored (the statement committed with its session fenced in); or its own
 * append is sent alone on its own connection, as without the group (insertEvents, event-log.ts),
 * when the statement stored nothing of it: its session was fenced off (the lone append then says
 * so, or finds its events stored by an earlier try), or the statement failed with the server's
 * answer (an event stored before, a policy, a deadlock with another's locks: it rolled back
 * whole). When the connection failed under the statement, that connection's session lost its
 * lock: its batch is rejected with the failure, and its event log settles what was stored before
 * anyone is told (settle.ts). The other sessions' own connections may be well: each sends its batch
 * alone on its own, which stores what the statement did not (an event it stored, with its ID, is
 * found there; a statement still running on the server meets the same rows' keys) or fails there,
 * and only then is its writer told.
 */
import type { Client } from 'pg';
import type { SessionEvent } from '../../session/format/store.js';
import { appendAcross, type Part } from './append-across.js';
import { isUnreachable } from './connect.js';
import { insertEvents } from './event-log.js';

/**
 * How many appends of one store may be on their way at once: one sent while another commits, so
 * that the server's WAL flush of one group overlaps the next group's statement; more would bring
 * back backends queueing for the cores (docs/internals.md, "Group commit across a store's sessions").
 */
export const GROUPS_IN_FLIGHT = 2;

/** A store's appends of its direct locks, grouped. */
export interface AppendGroup {
  /** Appends `events` of session `id` under `epoch`; `client` is its lock's connection, free until this resolves. */
  append(client: Client, id: string, epoch: number, events: readonly SessionEvent[]): Promise<void>;
}

interface Waiting extends Part {
  client: Client;
  told: (outcome: 'stored' | 'alone') => void;
  failed: (err: unknown) => void;
}

export function appendGroup(): AppendGroup {
  let waiting: Waiting[] = [];
  let sending = 0;
  let gathering = false;
  /** Sends the batches gathered, once a slot is free (a group ending gathers again). */
  const flush = (): void => {
    gathering = false;
    if (sending >= GROUPS_IN_FLIGHT || waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    sending++;
    void send(group).finally(() => {
      sending--;
      gather();
    });
  };
  // With nothing on its way, the batches made in this run of callbacks (a microtask after the
  // first: writers started by one call, or told by one group's answer, are all in), so that a lone
  // append waits for nothing; with a group on its way, the whole turn of the event loop
  // (setImmediate, once it has polled), since that group is committing meanwhile.
  const gather = (): void => {
    if (gathering || sending >= GROUPS_IN_FLIGHT || waiting.length === 0) return;
    gathering = true;
    if (sending === 0) queueMicrotask(flush);
    else setImmediate(flush);
  };
  return {
    async append(client, id, epoch, events) {
      const outcome = await new Promise<'stored' | 'alone'>((told, failed) => {
        waiting.push({ client, id, epoch, events, told, failed });
        gather();
      });
      if (outcome === 'alone') await insertEvents(client, id, events, epoch, true);
    },
  };
}

/** Sends one group: a batch alone by its own statement, several by one across their sessions. */
async function send(group: readonly Waiting[]): Promise<void> {
  const [first] = group;
  if (!first) return;
  if (group.length === 1) {
    await insertEvents(first.client, first.id, first.events, first.epoch, true).then(() => first.told('stored'), first.failed);
    return;
  }
  try {
    const stored = await appendAcross(first.client, group);
    for (const w of group) w.told(stored.has(w.id) ? 'stored' : 'alone');
  } catch (err) {
    for (const w of group) {
      if (w === first && isUnreachable(err)) w.failed(err);
      else w.told('alone');
    }
  }
}
