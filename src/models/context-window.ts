/**
 * Context windows of known models (`context-windows.json`, beside the price table), for
 * offering `/compact` before a conversation outgrows its model.
 */
import windows from './context-windows.json' with { type: 'json' };
import { lookupModel } from './model-table.js';

const table: Record<string, number> = windows.models;

/** `model`'s context window in tokens (input and output together), or undefined when it is not in the table. */
export function contextWindowOf(model: string): number | undefined {
  return lookupModel(table, model);
}
