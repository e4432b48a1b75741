/**
 * Where two conversations part: the messages they begin with in common, found by what the
 * messages say (role, text, tool calls), not by lineage, so any two sessions compare, relatives
 * or not. Pure.
 */
import type { Message } from '../api/data.js';

/** Two sessions' messages compared: how many they share at the start, and each side's rest. */
export interface Comparison {
  common: number;
  a: Message[];
  b: Message[];
  /** Both hold the same messages, in the same order. */
  same: boolean;
}

export function compareMessages(a: readonly Message[], b: readonly Message[]): Comparison {
  let common = 0;
  while (common < a.length && common < b.length && sameMessage(a[common]!, b[common]!)) common++;
  return { common, a: a.slice(common), b: b.slice(common), same: common === a.length && common === b.length };
}

/** Times, usage and IDs differ between a message and its copy in a fork or an import: what was said is compared. */
function sameMessage(x: Message, y: Message): boolean {
  return (
    x.role === y.role &&
    x.content === y.content &&
    x.toolCallId === y.toolCallId &&
    JSON.stringify(x.toolCalls ?? []) === JSON.stringify(y.toolCalls ?? []) &&
    (x.superseded ?? false) === (y.superseded ?? false)
  );
}
