/**
 * A PostgreSQL URL's password must never reach a person or a row: not in `location`, not in an
 * error (node-postgres and the server may quote the connection string), not in a log.
 */

/** The URL as people may see it: the password (in the authority or a `password` parameter) replaced by `***`. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: nothing of it can be shown safely beyond its scheme.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
    return scheme ? `${scheme}//…` : '(a PostgreSQL connection string)';
  }
  if (parsed.password) parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString().replace(/%2A%2A%2A/g, '***');
}

const MIN_SCRUBBED = 4;

/** Every form in which `url`'s secrets may appear in a message: the password raw, encoded and decoded, and the URL itself. */
export function secretsOf(url: string): string[] {
  const found = new Set<string>([url]);
  try {
    const parsed = new URL(url);
    const passwords = [parsed.password, ...[...parsed.searchParams].filter(([k]) => /pass/i.test(k)).map(([, v]) => v)];
    for (const p of passwords) {
      // Shorter ones cannot be told apart from ordinary text: scrubbing them would garble every message.
      if (p.length < MIN_SCRUBBED) continue;
      found.add(p);
      found.add(encodeURIComponent(p));
      try {
        found.add(decodeURIComponent(p));
      } catch {
        // not percent-encoded: the raw form is already listed
      }
    }
  } catch {
    // an unparsable URL is scrubbed whole
  }
  // Longest first, so a password inside the URL does not leave the rest of the URL behind.
  return [...found].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** `text` with every secret of the URL replaced (the URL itself by its redacted form). */
export function scrub(text: string, url: string): string {
  let out = text;
  for (const secret of secretsOf(url)) out = out.split(secret).join(secret === url ? redactUrl(url) : '***');
  return out;
}

/** True for a URL this store takes (`postgres://` or `postgresql://`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(value);
}
