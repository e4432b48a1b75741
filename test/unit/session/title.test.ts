import { describe, expect, it } from 'vitest';
import { createRedactor, MAX_TITLE_LENGTH } from '../../../src/index.js';
import { cleanTitle } from '../../../src/session/api/title.js';

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

describe('automaticTitle (docs/design.md §3)', () => {
  it('is the first line with text, redacted, one line, cut to 60 columns by display width with …', async () => {
    const { automaticTitle, AUTO_TITLE_COLUMNS } = await import('../../../src/session/model/auto-title.js');
    const stringWidth = (await import('string-width')).default;
    expect(await automaticTitle('\n  \n  Fix   the login\tbug \nand the rest', redact)).toBe('Fix the login bug');
    expect(await automaticTitle(' \n ', redact)).toBeNull();
    const cjk = await automaticTitle('会議'.repeat(50), redact);
    expect(stringWidth(cjk!)).toBeLessThanOrEqual(AUTO_TITLE_COLUMNS);
    expect(cjk).toBe(`${'会議'.repeat(14)}会…`);
    const emoji = await automaticTitle('👍🏽'.repeat(40), redact);
    expect(emoji).toBe(`${'👍🏽'.repeat(29)}…`);
    // Plain ASCII takes the same cut without string-width: 59 columns and the ellipsis.
    const words = await automaticTitle('word '.repeat(30), redact);
    expect(words).toBe(`${'word '.repeat(11)}word…`);
    expect(stringWidth(words!)).toBeLessThanOrEqual(AUTO_TITLE_COLUMNS);
    const secret = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    expect(await automaticTitle(`push with ${secret}`, redact)).toBe('push with [REDACTED:github-token]');
  });
});
