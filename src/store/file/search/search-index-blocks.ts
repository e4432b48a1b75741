/**
 * The sections of a search index file read only where a search needs them (search-index-file.ts):
 * a section is cut into blocks of a fixed size, each with its CRC-32 in the file's checked table,
 * and a read fetches the blocks its ranges cover (adjacent ones in one read), checks each against
 * its CRC-32 before any byte of it is used, and may keep them for the next search of the process.
 * A block that does not match throws `IndexDamaged`: the search rebuilds that file and asks again
 * (search-index.ts), so a garbled byte is never trusted, though only the blocks read are checked.
 */
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from './checksum.js';

/** A file found damaged while a search read it (a block that does not match its CRC-32). */
export class IndexDamaged extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(detail);
  }
}

/** Bytes of one section, read by range. */
export interface Bytes {
  readonly length: number;
  /** The bytes of each range `[start, end)`, in the order asked. */
  readMany(ranges: readonly (readonly [number, number])[]): Promise<Buffer[]>;
}

/** A section of u32, read by range of entries. */
export interface U32s {
  readonly length: number;
  /** Entries `[from, to)` of each range, in the order asked. */
  readMany(ranges: readonly (readonly [number, number])[]): Promise<Uint32Array[]>;
}

export async function readOne(bytes: Bytes, start: number, end: number): Promise<Buffer> {
  return (await bytes.readMany([[start, end]]))[0]!;
}

export async function readAll(values: U32s): Promise<Uint32Array> {
  return (await values.readMany([[0, values.length]]))[0]!;
}

/** A section held in memory (an index just built). */
export function bytesOf(buffer: Buffer): Bytes {
  return { length: buffer.length, readMany: async (ranges) => ranges.map(([s, e]) => buffer.subarray(s, e)) };
}

export function u32sOf(values: Uint32Array): U32s {
  return { length: values.length, readMany: async (ranges) => ranges.map(([s, e]) => values.subarray(s, e)) };
}

/** The u32 entries of a byte section (host order, as written). */
export function u32sOn(bytes: Bytes): U32s {
  return {
    length: bytes.length / 4,
    async readMany(ranges) {
      const read = await bytes.readMany(ranges.map(([s, e]) => [4 * s, 4 * e] as const));
      return read.map((b) => (b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, b.length / 4) : new Uint32Array(Uint8Array.from(b).buffer)));
    },
  };
}

export interface BlockSection {
  file: FileHandle;
  path: string;
  /** What the section holds, for the damage's detail. */
  name: string;
  /** Where it starts in the file, and its length. */
  at: number;
  length: number;
  block: number;
  /** The CRC-32 of each of its blocks. */
  crcs: Uint32Array;
  /** Keep the blocks read (for the next searches of the process) or let them go. */
  keep: boolean;
}

/**
 * A section of a file, read by checked blocks. A kept section reads its blocks into one buffer
 * the size of the section (its pages taken only as blocks land in them), so that any range of
 * checked blocks is a view on it: no copy per search, u32 always aligned.
 */
export function checkedBytes(s: BlockSection): Bytes {
  const blocks = Math.ceil(s.length / s.block);
  const image = s.keep ? Buffer.allocUnsafeSlow(s.length) : undefined;
  const checked = new Uint8Array(s.keep ? blocks : 0);
  const blockEnd = (i: number): number => Math.min(s.length, (i + 1) * s.block);
  return {
    length: s.length,
    async readMany(ranges) {
      const wanted = new Set<number>();
      for (const [start, end] of ranges) {
        if (start < 0 || end > s.length || start > end) throw new Error(`search index: ${s.name} read out of range`);
        for (let i = Math.floor(start / s.block); i * s.block < end; i++) if (!checked[i]) wanted.add(i);
      }
      // Adjacent blocks in one read each; all reads at once (the thread pool takes them in turn).
      const order = [...wanted].sort((a, b) => a - b);
      const runs: [number, number][] = [];
      for (const i of order) {
        const last = runs.at(-1);
        if (last && last[1] === i) last[1] = i + 1;
        else runs.push([i, i + 1]);
      }
      const got = new Map<number, Buffer>();
      await Promise.all(
        runs.map(async ([a, b]) => {
          const length = blockEnd(b - 1) - a * s.block;
          const into = image ?? Buffer.allocUnsafe(length);
          const offset = image ? a * s.block : 0;
          const { bytesRead } = await s.file.read(into, offset, length, s.at + a * s.block);
          if (bytesRead !== length) throw new IndexDamaged(s.path, 'cut short');
          for (let i = a; i < b; i++) {
            const block = into.subarray(offset + (i - a) * s.block, offset + blockEnd(i) - a * s.block);
            if (crc32([block]) !== s.crcs[i]) throw new IndexDamaged(s.path, `its checksum does not match (${s.name}, block ${i})`);
            if (image) checked[i] = 1;
            else got.set(i, block);
          }
        }),
      );
      if (image) return ranges.map(([start, end]) => image.subarray(start, end));
      return ranges.map(([start, end]) => {
        const parts: Buffer[] = [];
        for (let i = Math.floor(start / s.block); i * s.block < end; i++) parts.push(got.get(i)!.subarray(Math.max(0, start - i * s.block), Math.min(s.block, end - i * s.block)));
        return parts.length === 1 ? parts[0]! : Buffer.concat(parts, end - start);
      });
    },
  };
}
