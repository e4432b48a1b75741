/** What chatkeep cannot tell about a model missing from its tables (prices.json, context-windows.json). */
import { contextWindowOf } from './context-window.js';
import { priceOf } from './cost.js';

/**
 * One line when `model` is in neither or one of the tables: what is unknown, and what that
 * costs the user (no cost estimate, no /compact offer). Undefined for a known model or none.
 */
export function unknownModelNote(model: string | null): string | undefined {
  if (model === null) return undefined;
  const missing = [priceOf(model) === undefined ? 'price' : undefined, contextWindowOf(model) === undefined ? 'context window' : undefined].filter((x) => x !== undefined);
  if (missing.length === 0) return undefined;
  const without = [missing.includes('price') ? 'no cost estimate' : undefined, missing.includes('context window') ? 'no /compact offer before the window fills' : undefined].filter((x) => x !== undefined);
  return `The ${missing.join(' and ')} of model ${model} ${missing.length > 1 ? 'are' : 'is'} unknown to chatkeep: ${without.join(' and ')} for it.`;
}
