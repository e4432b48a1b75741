import type { SessionStore } from './store.js';
import type { SessionSnapshot } from './data.js';
import type { SessionStatusReport } from './session-api.js';

/** `Session.status()`: where a session is kept and how current its stored snapshot is (for `/status`). */
export function statusReport(facts: {
  id: string;
  store: SessionStore;
  state: SessionSnapshot;
  lock: SessionStatusReport['lock'];
  lastSave: SessionStatusReport['lastSave'];
  /** Events written since the last snapshot. */
  unsavedEvents: number;
}): SessionStatusReport {
  const { state, store } = facts;
  const where = store.where(facts.id);
  const usage = [state.stats, ...state.archived.map((a) => a.stats)].reduce(
    (sum, s) => ({ inputTokens: sum.inputTokens + s.inputTokens, outputTokens: sum.outputTokens + s.outputTokens }),
    { inputTokens: 0, outputTokens: 0 },
  );
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
