import { describe, expect, it } from 'vitest';
import { countOccurrences, fold, foldQuery } from '../../../src/search/fold.js';
import { LONE_GRAPHEMES, makeSnippet } from '../../../src/search/snippet.js';

/** The snippet with its hits in brackets, as a reader sees which parts are marked. */
function marked(content: string, query: string, width?: number): string {
  const { text, highlights } = makeSnippet(content, fold(query), width);
  let out = '';
  let at = 0;
  for (const [a, b] of highlights) {
    out += `${text.slice(at, a)}[${text.slice(a, b)}]`;
    at = b;
  }
  return out + text.slice(at);
}

describe('fold', () => {
  it('ignores case, including letters whose case forms differ in length', () => {
    expect(fold('Straße')).toBe(fold('STRASSE'));
    expect(fold('ẞ')).toBe('ss');
    expect(fold('ΣΊΣΥΦΟΣ')).toBe(fold('σίσυφος'));
    expect(fold('ÉCOLE')).toBe('école');
  });

  it('treats compatibility and composed forms alike (NFKC), but keeps accents', () => {
    expect(fold('ﬁle')).toBe('file');
    expect(fold('ＡＢＣ')).toBe('abc');
    expect(fold('e\u0301')).toBe(fold('é'));
    expect(fold('café')).not.toBe(fold('cafe'));
  });

  it('never leaves a NUL (it separates messages in the file index)', () => {
    expect(fold('a\0b')).toBe('a b');
  });

  it('trims the query, keeping what it holds literally', () => {
    expect(foldQuery('  (a+b)*C  ')).toEqual({ text: '(a+b)*C', folded: '(a+b)*c' });
  });

  it('counts non-overlapping occurrences', () => {
    expect(countOccurrences('aaaa', 'aa')).toBe(2);
    expect(countOccurrences('x.y x.y', '.')).toBe(2);
    expect(countOccurrences('abc', '')).toBe(0);
  });
});

describe('makeSnippet', () => {
  it('marks every hit in the text as written, whatever its case', () => {
    expect(marked('The Lock and the LOCK', 'lock')).toBe('The [Lock] and the [LOCK]');
  });

  it('maps a hit whose folded length differs back onto the original letters', () => {
    expect(marked('Die Straße ist lang', 'STRASSE')).toBe('Die [Straße] ist lang');
    expect(marked('Maße und Masse', 'masse')).toBe('[Maße] und [Masse]');
  });

  it('takes regex characters literally', () => {
    expect(marked('if (a+b)*c > 0 then (a+b)', '(a+b)*c')).toBe('if [(a+b)*c] > 0 then (a+b)');
    expect(marked('a.c abc', 'a.c')).toBe('[a.c] abc');
  });

  it('shows a window around the first hit on one line, with … where the message goes on', () => {
    const content = `${'word '.repeat(40)}needle\n\nand   then ${'more '.repeat(40)}`;
    const snippet = makeSnippet(content, 'needle', 40);
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.text.endsWith('…')).toBe(true);
    expect(snippet.text).not.toContain('\n');
    expect(snippet.text).toContain('needle and then more');
    expect([...snippet.text].length).toBeLessThanOrEqual(40);
    const [start, end] = snippet.highlights[0]!;
    expect(snippet.text.slice(start, end)).toBe('needle');
  });

  it('never cuts an emoji or a letter from its accent', () => {
    const content = `${'👩‍💻'.repeat(30)} hit ${'e\u0301'.repeat(30)}`;
    const { text } = makeSnippet(content, 'hit', 20);
    const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
    expect(graphemes.filter((g) => g !== '…' && g !== ' ' && g !== 'h' && g !== 'i' && g !== 't').every((g) => g === '👩‍💻' || g === 'e\u0301')).toBe(true);
  });

  it('counts graphemes as the whole message segmented, plain characters beside others', () => {
    // A letter and its accent, flags and a ZWJ emoji, each right after a plain character and one plain character apart.
    const content = `${'ae\u0301 '.repeat(30)} hit ${'1🇫🇷1👩‍💻1e\u0301 '.repeat(20)}`;
    // 18 graphemes of room (the blank runs before the hit collapse to one), none cut apart.
    expect(marked(content, 'hit', 20)).toBe('…ae\u0301 ae\u0301 [hit] 1🇫🇷1👩‍💻1e\u0301…');
  });

  it('takes as graphemes of their own only characters the segmenter never joins to a neighbour', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const joined: string[] = [];
    let lone = 0;
    for (let cp = 0x80; cp <= 0x1ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!LONE_GRAPHEMES.test(c)) continue;
      lone++;
      // Beside plain characters (an accent would join the one before, a prefix the one after) and beside itself (flags, jamo).
      if ([...segmenter.segment(`a${c}${c}a`)].length !== 4) joined.push(cp.toString(16));
    }
    expect(lone).toBeGreaterThan(20_000);
    expect(joined).toEqual([]);
  });

  it('cuts prose of mixed scripts where the segmenter does, runs of lone characters beside others', () => {
    // 38 graphemes of room, a third before the hit; the emoji, its variation selector, the jamo and the accents kept whole.
    const content = `${'über naïve café 数据 保存 сессия журнал λ → ≤ '.repeat(3)}hit 🚀 ✅\ufe0f 한국어 e\u0301 ä\u0308 1🇫🇷1 ${'数据 café '.repeat(5)}`;
    expect(marked(content, 'hit', 40)).toBe('…рнал λ → ≤ [hit] 🚀 ✅\ufe0f 한국어 e\u0301 ä\u0308 1🇫🇷1 数据 café…');
  });

  it('finds a hit in a very long message through its line', () => {
    const content = `${'filler line\n'.repeat(5000)}the NEEDLE is here\n${'more\n'.repeat(100)}`;
    expect(marked(content, 'needle')).toBe('…the [NEEDLE] is here…');
  });

  it('finds the hit when folding has moved it far from where it is written', () => {
    const content = `${'ß'.repeat(400)} the Needle`;
    expect(marked(content, 'needle', 20)).toBe('…ßßßßßßß the [Needle]');
  });

  it('shows the start of the message when folding finds the hit only across characters', () => {
    expect(makeSnippet('short text', 'absent')).toEqual({ text: 'short text', highlights: [] });
  });
});
