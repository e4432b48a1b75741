import { describe, expect, it } from 'vitest';
import { checkImport } from '../../../src/export/import-check.js';
import { exportJson } from '../../../src/export/json.js';
import { STORAGE_FIELDS } from '../../../src/export/schema.js';
import { richSnapshot } from './fixture.js';

describe('the JSON export', () => {
  it('is a self-describing document without the storage fields', () => {
    const document = JSON.parse(exportJson(richSnapshot(), '0.1.0')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(document)).toEqual(['format', 'exportVersion', 'exportedBy', 'session']);
    expect(document).toMatchObject({ format: 'chatkeep.export', exportVersion: 1, exportedBy: 'chatkeep 0.1.0' });
    for (const field of STORAGE_FIELDS) expect(document.session).not.toHaveProperty(field);
    expect(document.session).toMatchObject({
      id: 'session-20261122-143000',
      createdAt: '2026-11-22T14:30:00.000Z',
      parentId: 'session-20261121-090000',
      forkPoint: 4,
      summary: 'We talked about fences.',
      draft: 'half typed',
    });
    expect((document.session.archived as { messages: unknown[] }[])[0]!.messages).toHaveLength(2);
  });

  it('gives the same bytes however the snapshot was built', () => {
    const a = richSnapshot();
    const b = richSnapshot();
    // The same facts, keys in another order.
    const reversed = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;
    const shuffled = { ...reversed(b), messages: b.messages.map(reversed), archived: b.archived.map((s) => ({ ...reversed(s), messages: s.messages.map(reversed) })) };
    expect(exportJson(shuffled, '0.1.0')).toBe(exportJson(a, '0.1.0'));
  });

  it('reads back as the same session, storage fields aside', async () => {
    const original = richSnapshot();
    const back = await checkImport(exportJson(original, '0.1.0'), 'x.json');
    const strip = (s: object): Record<string, unknown> =>
      Object.fromEntries(Object.entries(s).filter(([key]) => !STORAGE_FIELDS.includes(key)));
    expect(strip(back)).toEqual(strip(original));
    expect(back.messages[0]!.timestamp).toBeInstanceOf(Date);
    expect(back.archived[0]!.archivedAt).toBeInstanceOf(Date);
    expect(exportJson(back, '0.1.0')).toBe(exportJson(original, '0.1.0'));
  });
});
