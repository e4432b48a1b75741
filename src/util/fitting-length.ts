/** Cutting text to a number of terminal columns, whatever measures them (string-width, loaded by the caller). */

let segmenter: Intl.Segmenter | undefined;

/**
 * How much of `text` (in UTF-16 units) fits in `max` columns as `width` measures them: whole
 * graphemes only, so an emoji or an accented letter is never split.
 */
export function fittingLength(text: string, max: number, width: (segment: string) => number): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let length = 0;
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = width(segment);
    if (used + w > max) break;
    length += segment.length;
    used += w;
  }
  return length;
}
