/**
 * What a search reads of a project's search index file (search-index-file.ts): a process that has
 * nothing of it in memory reads the parts sized by the sessions and the words, then only the
 * postings, text and originals its hits need, each block checked, not the whole file. Bytes are
 * counted through the opener the reader takes, never timed.
 */
import { join } from 'node:path';
import { open, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/search/fold.js';
import { complete, originalRecord, readSearchIndex, writeSearchIndex, type IndexParts, type Opener } from '../../../src/store/file/search/search-index-file.js';
import { scanIndex } from '../../../src/store/file/search/search-scan.js';
import { tmpHome } from '../../helpers/tmp-home.js';

const WORDS = ['journal', 'lock', 'keeps', 'while', 'return', 'session', 'every', 'answer', 'write', 'read'];

/** An index of `sessions` sessions of 8 messages of generated prose; `zanzibar` in one message of every 100th session. */
function partsOf(sessions: number): IndexParts {
  const texts: Buffer[] = [];
  const originals: Buffer[] = [];
  const textOffsets = [0];
  const originalOffsets = [0];
  const out: IndexParts['sessions'] = [];
  let message = 0;
  for (let s = 0; s < sessions; s++) {
    out.push({ id: `session-${String(s).padStart(6, '0')}`, key: `0/${s}/8/`, title: fold(`topic ${s}`), first: message });
    for (let m = 0; m < 8; m++, message++) {
      const words = Array.from({ length: 40 }, (_, k) => WORDS[(s * 31 + m * 7 + k * 3) % WORDS.length]);
      if (s % 100 === 0 && m === 3) words.push('Zanzibar');
      const content = words.join(' ');
      texts.push(Buffer.from(`${fold(content)}\0`));
      originals.push(originalRecord({ role: 'user', timestamp: new Date(Date.UTC(2026, 0, 1, 0, s)), archived: false, content }));
      textOffsets.push(textOffsets.at(-1)! + texts.at(-1)!.length);
      originalOffsets.push(originalOffsets.at(-1)! + originals.at(-1)!.length);
    }
  }
  return { sessions: out, text: Buffer.concat(texts), textOffsets: Uint32Array.from(textOffsets), originals: Buffer.concat(originals), originalOffsets: Uint32Array.from(originalOffsets) };
}

/** Opens files as the reader does, counting every byte read from them. */
function counting(): { opener: Opener; bytes: () => number } {
  let bytes = 0;
  const opener: Opener = async (path) => {
    const handle = await open(path, 'r');
    const read = handle.read.bind(handle) as (buffer: Buffer, offset: number, length: number, position: number) => Promise<{ bytesRead: number; buffer: Buffer }>;
    Object.assign(handle, {
      read: async (buffer: Buffer, offset: number, length: number, position: number) => {
        const result = await read(buffer, offset, length, position);
        bytes += result.bytesRead;
        return result;
      },
    });
    return handle;
  };
  return { opener, bytes: () => bytes };
}

describe('a search of a search index file in a fresh process', () => {
  it('reads the sessions, the words and the blocks its hits need: a small share of the file, and the hits all found', async () => {
    const path = join(tmpHome(), 'search.idx');
    await writeSearchIndex(path, complete(partsOf(2000)));
    const size = (await stat(path)).size;
    const { opener, bytes } = counting();
    const read = await readSearchIndex(path, opener);
    if (read.kind !== 'ok') throw new Error(`not read: ${JSON.stringify(read)}`);
    const index = read.index;
    try {
      const hits = await scanIndex(index, 'zanzibar', Buffer.from('zanzibar'));
      const found = [...hits.sessions].sort((a, b) => a - b);
      expect(found).toEqual(Array.from({ length: 20 }, (_, i) => i * 100));
      expect(hits.of(500)).toEqual({ hits: 1, best: { message: 3, hits: 1 } });
      // The snippet's message as written, read from the originals.
      const shown = await index.original(index.first[500]! + 3);
      expect(shown.content.endsWith('Zanzibar')).toBe(true);
      expect(bytes()).toBeGreaterThan(0);
      expect(bytes()).toBeLessThan(size / 10);
    } finally {
      await index.close();
    }
  });
});
