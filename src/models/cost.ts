/**
 * Estimated cost of tokens, from the price table in `prices.json` (one file, easy to update:
 * its `asOf` date and `sources` say where the figures come from).
 */
import prices from './prices.json' with { type: 'json' };
import type { ModelUsage, Usage } from '../session/api/data.js';
import { lookupModel } from './model-table.js';

type Price = { input: number; output: number };
const table: Record<string, Price> = prices.models;

/** A model's price per million tokens: its exact name, or its name with a date suffix; else undefined. */
export function priceOf(model: string): Price | undefined {
  return lookupModel(table, model);
}

/**
 * The estimated cost in US dollars of `usage`, when every token in it is known to come from a
 * priced model: `byModel` must account for all of `total` (older replies carry no model).
 */
export function estimateCost(total: Usage, byModel: readonly ModelUsage[] | undefined): number | undefined {
  if (!byModel || byModel.length === 0) return undefined;
  let usd = 0;
  let input = 0;
  let output = 0;
  for (const entry of byModel) {
    const price = priceOf(entry.model);
    if (!price) return undefined;
    usd += (entry.inputTokens * price.input + entry.outputTokens * price.output) / 1e6;
    input += entry.inputTokens;
    output += entry.outputTokens;
  }
  return input === total.inputTokens && output === total.outputTokens ? usd : undefined;
}

/** `$0.0042`, `$0.12`, `$3.40`: cents once it is worth a cent, else four decimals (`<$0.0001` below). */
export function formatCost(usd: number): string {
  if (usd >= 0.01 || usd === 0) return `$${usd.toFixed(2)}`;
  return usd < 0.0001 ? '<$0.0001' : `$${usd.toFixed(4)}`;
}
