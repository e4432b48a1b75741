/**
 * CRC-32 of a search index file's bytes: a torn or garbled file is found before it is trusted (a
 * posting changed in place would otherwise hide a hit). Node's own `zlib.crc32` where it has one
 * (20.15 on), else the same sum by table: files are interchangeable between the two.
 */
import * as zlib from 'node:zlib';

type Crc32 = (data: Uint8Array, value?: number) => number;

const native = (zlib as { crc32?: Crc32 }).crc32;

let table: Uint32Array | undefined;

function byTable(data: Uint8Array, value = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The CRC-32 of these parts, one after another. */
export function crc32(parts: readonly Uint8Array[], sum: Crc32 = native ?? byTable): number {
  let value = 0;
  for (const part of parts) value = sum(part, value);
  return value >>> 0;
}

/** The table version, for a test that it agrees with Node's. */
export const crc32ByTable = byTable;
