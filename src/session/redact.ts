/**
 * Secret redaction (DESIGN §3): applied to everything before it is written. Patterns are a
 * data table so that more formats can be added without touching the logic.
 */

/** One secret format. `keep` names a capture group kept verbatim (e.g. the `Bearer ` prefix). */
export interface SecretPattern {
  name: string;
  regex: RegExp;
  keep?: 'prefix';
}

/** The known formats. Each regex must be global; a `prefix` group (1) is kept as is. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private-key',
    regex: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
  },
  { name: 'anthropic-key', regex: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { name: 'openai-key', regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: 'github-token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'aws-access-key', regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'slack-token', regex: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { name: 'google-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: 'bearer-token', regex: /(\b[Bb]earer\s+)[A-Za-z0-9._~+/-]{8,}=*/g, keep: 'prefix' },
  { name: 'url-password', regex: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+(?=@)/gi, keep: 'prefix' },
];

/** Environment variable names whose values are secrets. */
const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD/i;
/** Shorter values are too likely to occur in ordinary text. */
const MIN_ENV_VALUE_LENGTH = 6;

function marker(name: string): string {
  return `[REDACTED:${name}]`;
}

/**
 * Builds a redactor: replaces known secret formats and the values of secret-named environment
 * variables (`*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, at least 6 characters) with
 * markers such as `[REDACTED:github-token]`.
 */
export function createRedactor(options: { env?: Record<string, string | undefined> } = {}): (text: string) => string {
  const env = options.env ?? process.env;
  const values = Object.entries(env)
    .filter((entry): entry is [string, string] => SECRET_ENV_NAME.test(entry[0]) && typeof entry[1] === 'string')
    .filter(([, value]) => value.trim().length >= MIN_ENV_VALUE_LENGTH)
    // Longest first, so a value containing another is replaced whole.
    .sort((a, b) => b[1].length - a[1].length);
  return (text: string): string => {
    if (typeof text !== 'string' || text.length === 0) return text;
    let out = text;
    for (const [name, value] of values) {
      if (out.includes(value)) out = out.split(value).join(marker(`env:${name}`));
    }
    for (const pattern of SECRET_PATTERNS) {
      pattern.regex.lastIndex = 0;
      out = out.replace(pattern.regex, (...args: unknown[]) =>
        pattern.keep === 'prefix' ? `${String(args[1])}${marker(pattern.name)}` : marker(pattern.name),
      );
    }
    return out;
  };
}

/** The identity, for `redact: false`. */
export const noRedaction = (text: string): string => text;
