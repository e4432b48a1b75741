/**
 * `writeFileAtomic` fed by a producer (how a snapshot is written, docs/design.md §5): the pieces
 * are encoded into one buffer written whenever the next piece might not fit, so the file must be
 * every piece's UTF-8, in order, across those boundaries and for a piece larger than the buffer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/store/file/atomic-write.js';
import { tmpHome } from '../../helpers/tmp-home.js';

describe('writeFileAtomic with a producer', () => {
  it('writes every piece in order: multi-byte text across batches, and a piece larger than a batch', async () => {
    const pieces: string[] = [];
    for (let i = 0; i < 3_000; i++) pieces.push(`{"n":${i},"text":"résumé 保存 🙂 ${'x'.repeat(i % 300)}"},`);
    pieces.push('🙂'.repeat(400_000)); // 800,000 UTF-16 units: more than one buffer holds
    for (let i = 0; i < 500; i++) pieces.push(`Ω${i}`);
    const target = join(tmpHome(), 'produced.json');
    const bytes = await writeFileAtomic(target, async (write) => {
      for (const piece of pieces) await write(piece);
    });
    const expected = Buffer.from(pieces.join(''), 'utf8');
    expect(bytes).toBe(expected.length);
    expect(readFileSync(target).equals(expected)).toBe(true);
  });
});
