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
  const head = text.slice(from, cut);
  // A key (and its `=`/`:`) waits for its value, so `password = hunter2x` is redacted whole.
  const prefix = /(?:\bbearer|\bbasic|[\w.-]*(?:\\?["'])?\s*[:=]|[\w.-]*(?:secret|passw|token|key|credential)[\w.-]*(?:\\?["'])?)\s*$/i.exec(head);
  if (prefix) cut = from + prefix.index;
  return cut;
}
