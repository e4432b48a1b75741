import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateCost, formatCost, priceOf } from '../../../src/models/cost.js';

describe('the price table', () => {
  it('says when and where its figures come from, and every price is a positive number', () => {
    const table = JSON.parse(readFileSync(new URL('../../../src/models/prices.json', import.meta.url), 'utf8')) as {
      asOf: string;
      sources: string[];
      models: Record<string, { input: number; output: number }>;
    };
    expect(table.asOf).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(table.sources.every((s) => s.startsWith('https://'))).toBe(true);
    for (const price of Object.values(table.models)) expect(price.input > 0 && price.output > 0).toBe(true);
  });

  it('matches a model by name or by name with a date suffix, never by a longer name', () => {
    expect(priceOf('gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf('gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf('claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15 });
    expect(priceOf('gpt-4o-audio-preview')).toBeUndefined();
    expect(priceOf('llama3.1')).toBeUndefined();
    expect(priceOf('constructor')).toBeUndefined();
  });
});

describe('estimateCost', () => {
  it('prices each model separately', () => {
    const byModel = [
      { model: 'gpt-4o-mini', inputTokens: 1_000_000, outputTokens: 0 },
      { model: 'claude-haiku-4-5', inputTokens: 0, outputTokens: 1_000_000 },
    ];
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, byModel)).toBeCloseTo(5.15, 10);
  });

  it('is unknown when any token comes from an unpriced model or from a reply without a model', () => {
    const priced = { model: 'gpt-4o-mini', inputTokens: 10, outputTokens: 5 };
    expect(estimateCost({ inputTokens: 10, outputTokens: 5 }, undefined)).toBeUndefined();
    expect(estimateCost({ inputTokens: 20, outputTokens: 10 }, [priced, { model: 'llama3.1', inputTokens: 10, outputTokens: 5 }])).toBeUndefined();
    expect(estimateCost({ inputTokens: 20, outputTokens: 10 }, [priced])).toBeUndefined();
  });

  it('formats dollars with cents, or four decimals below a cent', () => {
    expect(formatCost(3.4)).toBe('$3.40');
    expect(formatCost(0.054)).toBe('$0.05');
    expect(formatCost(0.0042)).toBe('$0.0042');
    expect(formatCost(0.00001)).toBe('<$0.0001');
  });
});
