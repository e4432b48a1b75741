/** The kill -9 trials' bookkeeping: what was shown, and the checks against what was kept. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Message, SessionManager } from '../src/index.js';
import type { Tally } from './part.js';
import type { Random } from './random.js';
import { layout } from '../src/store/file/layout.js';
import { UnknownSessionError } from '../src/session/api/errors.js';

/** What was shown on screen for one session, in order. */
export interface Shown {
  role: 'user' | 'assistant';
  text: string;
  /** The whole message was shown (else `text` is a prefix of a reply). */
  complete: boolean;
  /** Already counted as lost (each loss is reported once). */
  lost?: boolean;
}


/** When the kill comes. */
export type Moment = 'starting' | 'typing' | 'streaming' | 'autosave' | 'save' | 'reset' | 'load';
/** A step run to its end before the kill. */
export type Step = 'chat' | 'save' | 'reset' | 'load' | 'idle';

/** A complete echo reply ends so. */
export const REPLY_END = /\(read \d+ messages?\)$/;

/** One data home's run of trials. */
export interface Chain {
  home: string;
  cwd: string;
  rng: Random;
  manager: SessionManager;
  shown: Map<string, Shown[]>;
  current: string | undefined;
  other: string;
  counter: number;
  tag: string;
  /** When the last kill came, to explain a slow restart after it. */
  lastMoment?: Moment;
  /** Snapshot temp files and guards already seen, so each one a kill left is counted once. */
  temps: Set<string>;
}


/** Records messages as shown on screen for session `id`. */
export function acknowledge(chain: Chain, id: string, tally: Tally, ...messages: Shown[]): void {
  chain.shown.get(id)!.push(...messages);
  tally.add('messagesAcknowledged', messages.length);
}

/** A kill during a snapshot write leaves its temp file: counts how often a kill landed there. */
export function tornSnapshots(chain: Chain, tally: Tally): void {
  for (const id of [chain.current, chain.other]) {
    if (!id) continue;
    const dir = join(layout.project(chain.manager.store.location, chain.manager.project.key), 'sessions', id);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      // A session killed before its first message was never kept (docs/design.md §3), and a
      // listing discards what it left; one that held messages is missed by `check`, not here.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const name of names.filter((n) => n.startsWith('.session.json.tmp-'))) {
      if (chain.temps.has(name)) continue;
      chain.temps.add(name);
      tally.add('killedMidSnapshotWrite');
    }
    const damaged = names.filter((n) => n.includes('.corrupt-'));
    if (damaged.length > 0) tally.fail('falseDamage', `${id}: a crash was taken for damage: ${damaged.join(', ')}`);
    guardsLeft(chain, dir, ['lock.takeover', 'lock.takeover.break'], tally);
  }
  guardsLeft(chain, layout.project(chain.manager.store.location, chain.manager.project.key), ['index.json.lock'], tally);
}

/** Notes guards a kill left behind, and whether they name their holder (one that does not is broken only after seconds). */
function guardsLeft(chain: Chain, dir: string, names: string[], tally: Tally): void {
  for (const name of names) {
    let holder: string[];
    let seen: string;
    try {
      holder = readdirSync(join(dir, name));
      seen = `${join(dir, name)}@${statSync(join(dir, name)).ino}`;
    } catch {
      continue;
    }
    if (chain.temps.has(seen)) continue;
    chain.temps.add(seen);
    tally.add('guardsLeftByKills');
    if (!holder.includes('holder')) tally.notes.push(`a kill left ${name} without a holder in ${dir.split('/').slice(-2).join('/')}`);
  }
}

/** Reads the session without its lock and looks for everything shown, in order. */
export async function check(chain: Chain, id: string | undefined, tally: Tally): Promise<void> {
  if (!id) return;
  let messages: Message[];
  try {
    const snapshot = await chain.manager.read(id);
    messages = [...snapshot.archived.flatMap((segment) => segment.messages), ...snapshot.messages];
  } catch (err) {
    // A session that never held a message is not kept (docs/design.md §3): nothing was shown, nothing is missing.
    if (err instanceof UnknownSessionError && (chain.shown.get(id) ?? []).length === 0) return;
    tally.fail('sessionsUnreadable', `${id}: ${String(err)}`);
    return;
  }
  let at = 0;
  const shown = chain.shown.get(id) ?? [];
  for (const [i, want] of shown.entries()) {
    if (want.lost) continue;
    const found = messages.findIndex(
      (m, j) => j >= at && m.role === want.role && (want.complete ? m.content === want.text : m.content.startsWith(want.text)),
    );
    if (found === -1) {
      tally.fail('messagesLost', `${id}: shown message ${i} ${JSON.stringify(want)} is not in the session (${messages.length} messages)`);
      want.lost = true;
      continue;
    }
    const m = messages[found]!;
    if (!want.complete && !REPLY_END.test(m.content) && !m.interrupted) {
      tally.fail('partialsNotMarkedInterrupted', `${id}: ${JSON.stringify(m.content)}`);
    }
    at = found + 1;
  }
}
