/**
 * `npm run bench:scale` cannot rot: its generator and every measured query run once at a small
 * size (two sizes, so the server is grown as the full run grows it), into a temp dir. Asserts
 * the results file's shape and the correctness counts — every answer equal to its plain-SQL
 * floor's, no writer's turn lost or interleaved — never a speed.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../helpers/tmp-home.js';

const run = promisify(execFile);
const SIZES = [300, 600];

interface Results {
  date: string;
  sizes: number[];
  note: string;
  phases: Record<string, Record<string, number>>;
  checks: Record<string, Record<string, { chatkeep: number; floor: number }>>;
  rows: { name: string; n: number; ms: number; floorMs: number; ratio: number; target: number; limitMs?: number; pass?: boolean; note?: string }[];
}

describe('bench:scale at a small size', () => {
  it('builds, measures every row at each size, and every answer equals its floor', { timeout: 600_000 }, async () => {
    const out = tmpHome('chatkeep-scale-test-');
    const { stdout } = await run(process.execPath, ['dist/bench/scale/run.js', '--sizes', SIZES.join(','), '--once', '--out', out], {
      maxBuffer: 16 * 2 ** 20,
    });
    expect(stdout).toContain('pg scale: a member lists one project');
    const results = JSON.parse(readFileSync(join(out, 'scale-results.json'), 'utf8')) as Results;
    expect(results.sizes).toEqual(SIZES);
    expect(results.note).toMatch(/max_connections=\d+/);
    const names = [...new Set(results.rows.map((r) => r.name))];
    for (const n of SIZES) {
      // The same rows at each size, in the row shape of bench/results.json.
      expect(results.rows.filter((r) => r.n === n).map((r) => r.name)).toEqual(names);
      expect(results.phases[n]!.messages).toBeGreaterThanOrEqual(n);
      for (const [what, { chatkeep, floor }] of Object.entries(results.checks[n]!)) expect({ what, n, count: chatkeep }).toEqual({ what, n, count: floor });
      expect(results.checks[n]!['writers: lost']).toEqual({ chatkeep: 0, floor: 0 });
      expect(results.checks[n]!['writers: interleaved']).toEqual({ chatkeep: 0, floor: 0 });
      expect(results.checks[n]!['search: zanzibar']!.floor).toBeGreaterThan(0);
      // The bulk load (triggers off, indexes after) wrote what chatkeep's own store writes for the same session.
      expect(results.checks[n]!['load: rows as chatkeep writes them']!.floor).toBeGreaterThanOrEqual(5);
      expect(results.checks[n]!['load: sessions without a lock key']).toEqual({ chatkeep: 0, floor: 0 });
    }
    // The write-ahead log each side's appends wrote, read from the server: each append's message (400 characters) at least.
    for (const r of results.rows.filter((row) => row.name.includes('appends per second'))) {
      const [, ck, floor] = /WAL per append [\d.]+ records, (\d+) bytes[^;]*, floor [\d.]+ records, (\d+) bytes/.exec(r.note ?? '') ?? [];
      expect([Number(ck), Number(floor)].every((bytes) => bytes > 400)).toBe(true);
    }
    for (const r of results.rows) {
      expect(Object.keys(r).filter((k) => !['limitMs', 'pass', 'note'].includes(k)).sort()).toEqual(['floorMs', 'ms', 'n', 'name', 'ratio', 'target']);
      expect(r.ms).toBeGreaterThan(0);
      expect(r.floorMs).toBeGreaterThan(0);
    }
    expect(names.filter((n) => n.includes('p99')).length).toBeGreaterThanOrEqual(2);
    expect(names.some((n) => n.includes('LangGraph'))).toBe(true);
    // LangChain's PostgresChatMessageHistory measured beside it, and its histories read back whole.
    expect(names.some((n) => n.includes('PostgresChatMessageHistory') && n.includes('p99'))).toBe(true);
    for (const n of SIZES) expect(results.checks[n]!['langchain history: messages read back']).toEqual({ chatkeep: 20, floor: 20 });
    expect(readFileSync(join(out, 'scale-curve.svg'), 'utf8')).toMatch(/^<svg[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
  });
});
