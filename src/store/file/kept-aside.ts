/**
 * A session directory's damaged files moved aside (`session.json.corrupt-<time>`, a copy of a
 * journal with damaged lines): read for `sessions doctor`, and removed when their owner lets
 * them go (docs/design.md §5).
 */
import { readFile, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import type { KeptPart } from '../../session/format/store.js';
import { keptAside } from './load.js';

export async function readKept(dir: string): Promise<KeptPart[]> {
  const parts: KeptPart[] = [];
  for (const where of await keptAside(dir)) {
    const text = await readFile(where, 'utf8').catch(() => '');
    parts.push({ where, part: basename(where).startsWith('session.json') ? 'snapshot' : 'journal', text });
  }
  return parts;
}

export async function forgetKept(dir: string): Promise<number> {
  const kept = await keptAside(dir);
  for (const where of kept) await unlink(where);
  return kept.length;
}
