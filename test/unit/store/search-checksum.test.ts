import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, crc32ByTable } from '../../../src/store/file/search/checksum.js';

describe('the search index checksum', () => {
  it('is the same by table (Node before 20.15) as by zlib, so index files are interchangeable', () => {
    const native = (zlib as { crc32?: (d: Uint8Array, v?: number) => number }).crc32;
    const parts = [Buffer.from('CKSEARCH'), Buffer.from('café, Straße\0'), Buffer.alloc(0), Buffer.from([0, 255, 128])];
    // The standard check value of CRC-32.
    expect(crc32([Buffer.from('123456789')], crc32ByTable)).toBe(0xcbf43926);
    expect(crc32(parts, crc32ByTable)).toBe(crc32([Buffer.concat(parts)], crc32ByTable));
    if (native) expect(crc32(parts, crc32ByTable)).toBe(crc32(parts, native));
  });
});
