/**
 * Redaction searches a text with a secret format's regex only when the text holds that format's
 * hint (docs/design.md §6: redaction was most of an import's time). A hint that a match could lack
 * would let a secret through: every match of every format, over the secret corpus, ordinary text
 * and the secrets written into ordinary text, holds its format's hint.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor, SECRET_PATTERNS } from '../../../src/session/runtime/redact.js';
import { ordinaryCorpus, secretCorpus } from '../../../torture/redaction.js';

function holdsHint(text: string, hint: (typeof SECRET_PATTERNS)[number]['hint']): boolean {
  return hint instanceof RegExp ? hint.test(text) : hint.some((part) => text.includes(part));
}

/** The redaction of old: every format's regex over every text. */
function redactAll(text: string): string {
  let out = text;
  for (const p of SECRET_PATTERNS) {
    p.regex.lastIndex = 0;
    out = out.replace(p.regex, (...args: unknown[]) => (p.keep === 'prefix' ? `${String(args[1])}[REDACTED:${p.name}]` : `[REDACTED:${p.name}]`));
  }
  return out;
}

describe('redaction hints', () => {
  const secrets = secretCorpus();
  const ordinary = ordinaryCorpus();
  // Each secret also inside a line of ordinary text, and at its very start and end.
  const texts = [
    ...secrets.map((s) => s.text),
    ...secrets.map((s) => s.secret),
    ...secrets.map((s, i) => `${ordinary[i % ordinary.length]} ${s.text} ${ordinary[(i + 7) % ordinary.length]}`),
    ...ordinary,
  ];

  it('every match of a format holds its hint', () => {
    let matches = 0;
    for (const p of SECRET_PATTERNS) {
      expect(p.hint instanceof RegExp ? p.hint.global : false, `${p.name}'s hint regex must not be global`).toBe(false);
      for (const text of texts) {
        for (const m of text.matchAll(p.regex)) {
          matches += 1;
          expect(holdsHint(m[0], p.hint) || holdsHint(text, p.hint), `${p.name} matched ${JSON.stringify(m[0])} without its hint`).toBe(true);
          // The hint is in the match itself, not only somewhere else in the text.
          expect(holdsHint(m[0], p.hint), `${p.name}: ${JSON.stringify(m[0])}`).toBe(true);
        }
      }
    }
    expect(matches).toBeGreaterThan(secrets.length / 2);
  });

  it('redacts exactly as searching every format over every text does', () => {
    const redact = createRedactor({ env: {} });
    for (const text of texts) expect(redact(text)).toBe(redactAll(text));
  });
});
