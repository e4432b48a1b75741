/**
 * Where streamed text may be cut into journal deltas without splitting a secret: after
 * whitespace, never inside an unfinished PEM block, never between `Bearer` and its token.
 * Redaction then sees each secret whole.
 */
export function safeBoundary(text: string, from: number): number {
  let end = text.length;
  const begin = text.lastIndexOf('-----BEGIN');
  if (begin >= from && text.indexOf('-----END', begin) === -1) end = begin;
  else if (begin !== -1 && begin < from && text.indexOf('-----END', begin) === -1) return from;
  // Cut after the last whitespace before `end`.
  let cut = -1;
  for (let i = end - 1; i >= from; i--) {
    if (/\s/.test(text[i])) {
      cut = i + 1;
      break;
    }
  }
  if (cut === -1) return from;
  // A key (and its `=`/`:`) waits for its value, so `password = hunter2x` is redacted whole.
  // Only the end of the text is examined: a key is short, and a long word must not cost O(n²).
  const start = Math.max(from, cut - 256);
  const head = text.slice(start, cut);
  const prefix = /(?:\bbearer|\bbasic|[\w.-]{0,64}(?:\\?["'])?\s*[:=]|[\w.-]{0,64}(?:secret|passw|token|key|credential)[\w.-]{0,64}(?:\\?["'])?)\s*$/i.exec(head);
  if (prefix) cut = start + prefix.index;
  return cut;
}
