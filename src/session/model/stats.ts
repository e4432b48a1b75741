/** A session's counters: messages, and tokens in all and per model. */
import type { Message, ModelUsage, SessionStats, Usage } from '../api/data.js';

/** Adds tokens (of `model`, when known) to `stats`, in place. */
export function addUsage(stats: SessionStats, usage: Usage, model: string | undefined): void {
  stats.inputTokens += usage.inputTokens;
  stats.outputTokens += usage.outputTokens;
  if (model) addModelUsage((stats.byModel ??= []), model, usage);
}

/** The counters of these messages. */
export function statsOf(messages: readonly Message[]): SessionStats {
  const stats: SessionStats = { messageCount: messages.length, inputTokens: 0, outputTokens: 0 };
  for (const m of messages) if (m.usage) addUsage(stats, m.usage, m.model);
  return stats;
}

/** Adds `usage` to `model`'s entry in per-model totals, in place. */
function addModelUsage(totals: ModelUsage[], model: string, usage: Usage): void {
  let entry = totals.find((t) => t.model === model);
  if (!entry) totals.push((entry = { model, inputTokens: 0, outputTokens: 0 }));
  entry.inputTokens += usage.inputTokens;
  entry.outputTokens += usage.outputTokens;
}
