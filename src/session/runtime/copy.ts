/**
 * Copying sessions between stores (`chatkeep sessions copy --to`): idempotent (a session the
 * target already holds, the same, is not copied again), verified (what the target then holds
 * hashes the same as what was read), and never over a different session with the same ID.
 */
import { createHash } from 'node:crypto';
import { contentHash } from '../model/content-hash.js';
import type { SessionManager } from './manager-api.js';

/** What became of one session. */
export type CopyOutcome =
  | { id: string; outcome: 'copied'; messages: number; hash: string }
  | { id: string; outcome: 'present'; messages: number; hash: string }
  /** The target holds another session under this ID, or issued it once (trashed, deleted): left alone. */
  | { id: string; outcome: 'refused'; reason: string };

export interface CopyReport {
  sessions: CopyOutcome[];
  copied: number;
  present: number;
  refused: number;
  /** Messages in the sessions copied or already present (archived ones included). */
  messages: number;
  /** One hash over every session's content hash, in ID order: the same on both sides after a good copy. */
  hash: string;
}

/** Copies `ids` from one store to another, one session at a time; `progress` hears each outcome. */
export async function copySessions(
  from: SessionManager,
  to: SessionManager,
  ids: readonly string[],
  progress?: (outcome: CopyOutcome, done: number, total: number) => void,
): Promise<CopyReport> {
  const sessions: CopyOutcome[] = [];
  for (const id of ids) {
    const snapshot = await from.read(id);
    const hash = contentHash(snapshot);
    const messages = snapshot.messages.length + snapshot.archived.reduce((n, a) => n + a.messages.length, 0);
    let outcome: CopyOutcome;
    if (await to.adopt(snapshot)) {
      // Verified by reading it back: what the target holds is what was read here.
      const back = contentHash(await to.read(snapshot.id));
      if (back !== hash) throw new Error(`The copy of ${snapshot.id} does not read back the same (hash ${back.slice(0, 12)} ≠ ${hash.slice(0, 12)})`);
      outcome = { id: snapshot.id, outcome: 'copied', messages, hash };
    } else {
      const there = await to.read(snapshot.id).catch(() => undefined);
      outcome =
        there && contentHash(there) === hash
          ? { id: snapshot.id, outcome: 'present', messages, hash }
          : {
              id: snapshot.id,
              outcome: 'refused',
              reason: there ? 'the target holds a different session with this ID' : 'the target issued this ID before (in its trash, or deleted)',
            };
    }
    sessions.push(outcome);
    progress?.(outcome, sessions.length, ids.length);
  }
  const kept = sessions.filter((s): s is Extract<CopyOutcome, { hash: string }> => s.outcome !== 'refused');
  const overall = createHash('sha256');
  for (const s of [...kept].sort((a, b) => (a.id < b.id ? -1 : 1))) overall.update(`${s.id} ${s.hash}\n`);
  return {
    sessions,
    copied: sessions.filter((s) => s.outcome === 'copied').length,
    present: sessions.filter((s) => s.outcome === 'present').length,
    refused: sessions.filter((s) => s.outcome === 'refused').length,
    messages: kept.reduce((n, s) => n + s.messages, 0),
    hash: overall.digest('hex'),
  };
}
