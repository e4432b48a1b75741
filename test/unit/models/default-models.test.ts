import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from '../../../src/models/choose-provider.js';
import { contextWindowOf } from '../../../src/models/context-window.js';
import { priceOf } from '../../../src/models/cost.js';
import { unknownModelNote } from '../../../src/models/unknown-model.js';

describe('the default models', () => {
  it('are each in the price table and the context-window table', () => {
    const models = Object.values(DEFAULT_MODELS).filter((m): m is string => m !== null);
    expect(models).toContain('claude-sonnet-5-5');
    for (const model of models) {
      expect(priceOf(model), `${model} in prices.json`).toBeDefined();
      expect(contextWindowOf(model), `${model} in context-windows.json`).toBeDefined();
      expect(unknownModelNote(model)).toBeUndefined();
    }
  });
});

describe('a model chatkeep does not know', () => {
  it('gets one line saying its price and window are unknown, and what that means', () => {
    expect(unknownModelNote('gpt-9-preview')).toBe(
      'The price and context window of model gpt-9-preview are unknown to chatkeep: no cost estimate and no /compact offer before the window fills for it.',
    );
    expect(unknownModelNote(null)).toBeUndefined();
  });
});
