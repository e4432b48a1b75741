import { describe, expect, it } from 'vitest';
import { createRedactor, MAX_TITLE_LENGTH } from '../../../src/index.js';
import { cleanTitle } from '../../../src/session/title.js';

const redact = createRedactor({ env: {} });

describe('cleanTitle', () => {
  it('keeps a short title, on one line, and clears an empty one', () => {
    expect(cleanTitle('  auth\nbug \t fix ', redact)).toBe('auth bug fix');
    expect(cleanTitle(' \n ', redact)).toBeNull();
  });

  it(`caps at ${MAX_TITLE_LENGTH} characters, counting emoji as one, ending in …`, () => {
    const title = cleanTitle('🙂'.repeat(500), redact)!;
    expect([...title]).toHaveLength(MAX_TITLE_LENGTH);
    expect(title.endsWith('🙂…')).toBe(true);
  });

  it('redacts before cutting, so a secret is never left half visible', () => {
    const secret = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const title = cleanTitle(`${'x'.repeat(180)} ${secret}`, redact)!;
    expect(title).not.toContain('ghp_');
    expect(title).toMatch(/ \[REDACTED:github-t…$/);
  });
});
