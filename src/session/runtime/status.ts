import type { WholeStore } from './store-defaults.js';
import type { ModelUsage, SessionSnapshot, SessionStats } from '../api/data.js';
import type { SessionStatusReport } from '../api/session-api.js';

/** `Session.status()`: where a session is kept and how current its stored snapshot is (for `/status`). */
export function statusReport(facts: {
  id: string;
  store: WholeStore;
  state: SessionSnapshot;
  lock: SessionStatusReport['lock'];
  lastSave: SessionStatusReport['lastSave'];
  /** Events written since the last snapshot. */
  unsavedEvents: number;
}): SessionStatusReport {
  const { state, store } = facts;
  const where = store.where(facts.id);
  const { inputTokens, outputTokens } = totalStats(state);
  const usage = { inputTokens, outputTokens };
  return {
    id: facts.id,
    store: store.kind,
    where,
    lock: facts.lock,
    lastSave: facts.lastSave,
    unsavedJournalLines: facts.unsavedEvents,
    provider: { ...state.provider },
    systemPrompt: state.systemPrompt,
    messageCount: state.stats.messageCount,
    usage,
  };
}

/**
 * The tokens of the whole session: the live conversation's and every segment's that /reset or
 * /compact archived, per model too (for the cost). `/status` and the exit line both say this, so
 * they agree after a /reset. `messageCount` stays the live conversation's.
 */
export function totalStats(s: { stats: Readonly<SessionStats>; archived: readonly { stats: SessionStats }[] }): SessionStats {
  const total: SessionStats = { messageCount: s.stats.messageCount, inputTokens: 0, outputTokens: 0 };
  const byModel = new Map<string, ModelUsage>();
  for (const part of [...s.archived.map((a) => a.stats), s.stats]) {
    total.inputTokens += part.inputTokens;
    total.outputTokens += part.outputTokens;
    for (const m of part.byModel ?? []) {
      const entry = byModel.get(m.model) ?? { model: m.model, inputTokens: 0, outputTokens: 0 };
      entry.inputTokens += m.inputTokens;
      entry.outputTokens += m.outputTokens;
      byModel.set(m.model, entry);
    }
  }
  if (byModel.size > 0) total.byModel = [...byModel.values()];
  return total;
}
