import { describe, expect, it } from 'vitest';
import { encodeSnapshot, encodeSnapshotSliced } from '../../../src/session/format/codec.js';
import { Slicer, stringifySliced } from '../../../src/session/format/sliced-json.js';
import type { SessionSnapshot } from '../../../src/session/api/data.js';
import { blankSnapshot } from '../../../src/session/format/blank.js';

async function sliced(value: unknown, slicer?: Slicer, indent?: number): Promise<string> {
  const pieces: string[] = [];
  await stringifySliced(value, (piece) => void pieces.push(piece), slicer, indent);
  return pieces.join('');
}

/** A string of `n` UTF-16 units whose surrogate pairs straddle every piece boundary. */
function awkward(n: number): string {
  return ('a😀\u0000"\\\n\u001b[2J\ud800é' + 'x'.repeat(1021)).repeat(Math.ceil(n / 1032)).slice(0, n);
}

describe('stringifySliced', () => {
  it('gives exactly the text JSON.stringify gives', async () => {
    const values: unknown[] = [
      null, 0, -1.5e-7, true, 'plain', awkward(3_000_000), [], {}, [undefined, () => 1, Symbol('s'), 1],
      { a: undefined, b: () => 1, c: [1, { d: new Date(0) }], [`k${'"'}`]: 'v' },
      Array.from({ length: 100 }, (_, i) => ({ i, text: awkward(i * 37), nested: Array.from({ length: 40 }, () => i) })),
      Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, i % 3 ? awkward(i) : [i]])),
    ];
    for (const value of values) expect(await sliced(value)).toBe(JSON.stringify(value));
  });

  it('gives exactly that text where small elements are written a run at a time, a long one among them', async () => {
    // Runs of small elements go through one JSON.stringify; a long string or a wide array breaks a run.
    const value = Array.from({ length: 100 }, (_, i) =>
      i === 40 ? awkward(1_100_000) : i === 70 ? Array.from({ length: 50 }, (_, k) => k) : i % 9 === 0 ? undefined : i % 7 === 0 ? () => i : { i, d: new Date(i), t: awkward(i) },
    );
    expect(await sliced(value, new Slicer(60_000))).toBe(JSON.stringify(value));
    expect(await sliced({ messages: value }, new Slicer(60_000))).toBe(JSON.stringify({ messages: value }));
  });

  it('gives exactly the text JSON.stringify gives with an indent (a JSON export)', async () => {
    const values: unknown[] = [
      null, 'plain', awkward(2_100_000), [], {}, { a: undefined }, [undefined, 1], { a: [], b: {}, c: { d: [] } },
      { a: undefined, b: () => 1, c: [1, { d: new Date(0), e: 'x\ny' }], [`k${'"'}`]: 'v' },
      { session: { messages: Array.from({ length: 100 }, (_, i) => ({ i, text: awkward(i === 50 ? 1_500_000 : i * 37), usage: { n: [i, {}] } })) } },
      Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, i % 3 ? awkward(i) : [i, [], { k: i }]])),
    ];
    for (const value of values) expect(await sliced(value, undefined, 2)).toBe(JSON.stringify(value, null, 2));
  });

  it('gives the event loop a turn between pieces, so a large snapshot never holds it', async () => {
    const value = Array.from({ length: 500 }, (_, i) => ({ i, text: 'x'.repeat(100) }));
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    // A slice of 0 ms yields after every piece: each of the 500 elements lets the loop turn.
    await sliced(value, new Slicer(0));
    counting = false;
    expect(turns).toBeGreaterThanOrEqual(250);
  });
});

describe('encodeSnapshotSliced', () => {
  it('writes the same bytes as encodeSnapshot', async () => {
    const snapshot: SessionSnapshot = blankSnapshot('session-20261125-080000', '/tmp/p', new Date(0));
    snapshot.messages = Array.from({ length: 300 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: awkward(i === 7 ? 2_500_000 : i * 11),
      timestamp: new Date(1_700_000_000_000 + i),
    }));
    const pieces: string[] = [];
    await encodeSnapshotSliced(snapshot, (piece) => void pieces.push(piece));
    expect(pieces.join('')).toBe(await encodeSnapshot(snapshot));
  });
});
