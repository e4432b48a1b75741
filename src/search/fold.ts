/**
 * How text is compared in a search: the same function folds the query and every message, so a
 * match is a plain substring test on folded text (literal: no character is special).
 *
 * Folding = Unicode NFKC (compatibility forms: `ﬁ` → `fi`, full-width `Ａ` → `A`, composed
 * accents), then full case mapping down, up and down again (locale-independent), then NFKC again
 * (the case mapping can leave a sequence unnormalized). Lower-upper-lower is the usual
 * approximation of Unicode full case folding: it folds `ß` and `ẞ` to `ss` (so `Straße` matches
 * `STRASSE`) and the final sigma `ς` to `σ`, which lowercasing alone does not. Accents are kept
 * (`café` does not match `cafe`). NUL becomes a space: it separates messages in the file
 * store's index. ASCII text takes the short way (lowercase only): the result is the same.
 */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  const folded = ASCII.test(lower) ? lower : lower.normalize('NFKC').toLowerCase().toUpperCase().toLowerCase().normalize('NFKC');
  return folded.includes('\0') ? folded.replaceAll('\0', ' ') : folded;
}

const ASCII = /^[\x00-\x7f]*$/;

/** A query ready to match: its folded text (empty when the query was only blanks). */
export interface FoldedQuery {
  /** As typed (trimmed), for messages. */
  text: string;
  folded: string;
}

export function foldQuery(query: string): FoldedQuery {
  const text = query.trim();
  return { text, folded: fold(text) };
}

/** Non-overlapping occurrences of `needle` in `haystack` (both folded); 0 for an empty needle. */
export function countOccurrences(haystack: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}
