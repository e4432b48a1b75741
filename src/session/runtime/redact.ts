/**
 * Secret redaction (docs/design.md §6): applied to everything before it is written. Patterns are a
 * data table so that more formats can be added without touching the logic.
 */
import { checkOptions } from '../api/check-options.js';
import { REDACTOR_OPTIONS } from '../api/library-options.js';

/** One secret format. `keep` names a capture group kept verbatim (e.g. the `Bearer ` prefix). */
export interface SecretPattern {
  name: string;
  /**
   * What every match contains: one of these strings, or a match of this (cheap) regex. Text
   * without it is not searched with `regex` (most text holds no hint of most formats, and 35
   * full searches per message made redaction most of an import's time).
   */
  hint: readonly string[] | RegExp;
  regex: RegExp;
  keep?: 'prefix';
}

/**
 * The known formats. Each regex must be global; a `prefix` group (1) is kept as is. Every
 * repetition that can start at many places of one long word is bounded: a pasted megabyte
 * of `a-a-a-…` must not take quadratic time.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private-key',
    hint: ['-----BEGIN '],
    regex: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
  },
  { name: 'anthropic-key', hint: ['sk-ant-'], regex: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { name: 'openai-key', hint: ['sk-'], regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: 'github-token', hint: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'aws-access-key', hint: ['AKIA', 'ASIA'], regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'slack-token', hint: ['xox'], regex: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { name: 'google-api-key', hint: ['AIza'], regex: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: 'jwt', hint: ['eyJ'], regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: 'bearer-token', hint: ['earer'], regex: /(\b[Bb]earer\s+)[A-Za-z0-9._~+/-]{8,}=*/g, keep: 'prefix' },
  // An empty user name too (`redis://:password@host`).
  { name: 'url-password', hint: ['://'], regex: /(\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:@/]{0,256}:)[^\s@/]{1,256}(?=@)/gi, keep: 'prefix' },
  { name: 'gitlab-token', hint: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glsoat-'], regex: /\bgl(?:pat|dt|rt|ptt|ft|soat)-[A-Za-z0-9_-]{20,}/g },
  { name: 'slack-webhook', hint: ['https://hooks.slack.com/'], regex: /\bhttps:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g },
  { name: 'stripe-key', hint: ['_live_', '_test_'], regex: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { name: 'stripe-webhook-secret', hint: ['whsec_'], regex: /\bwhsec_[A-Za-z0-9]{24,}/g },
  { name: 'twilio-api-key', hint: ['SK'], regex: /\bSK[0-9a-fA-F]{32}\b/g },
  { name: 'sendgrid-key', hint: ['SG.'], regex: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { name: 'npm-token', hint: ['npm_'], regex: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'pypi-token', hint: ['pypi-AgE'], regex: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  { name: 'huggingface-token', hint: ['hf_'], regex: /\bhf_[A-Za-z0-9]{30,}/g },
  { name: 'google-oauth', hint: ['GOCSPX-', 'ya29.'], regex: /\b(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[A-Za-z0-9_-]{20,})/g },
  { name: 'discord-bot-token', hint: /\.[A-Za-z0-9_-]{6}\./, regex: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b/g },
  // After `bot` in API URLs, so no word boundary before the digits.
  { name: 'telegram-bot-token', hint: [':AA'], regex: /(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{33}/g },
  { name: 'shopify-token', hint: ['shp'], regex: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { name: 'digitalocean-token', hint: ['_v1_'], regex: /\bdo[por]_v1_[a-f0-9]{64}\b/g },
  { name: 'vault-token', hint: ['hvs.', 'hvb.', 'hvr.'], regex: /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g },
  { name: 'linear-api-key', hint: ['lin_'], regex: /\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b/g },
  { name: 'grafana-token', hint: ['glsa_', 'glc_'], regex: /\b(?:glsa_[A-Za-z0-9]{32}_[a-fA-F0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})/g },
  { name: 'databricks-token', hint: ['dapi'], regex: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { name: 'age-secret-key', hint: ['AGE-SECRET-KEY-1'], regex: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g },
  { name: 'postman-api-key', hint: ['PMAK-'], regex: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g },
  { name: 'azure-account-key', hint: ['AccountKey='], regex: /(\bAccountKey=)[A-Za-z0-9+/]{40,}={0,2}/g, keep: 'prefix' },
  { name: 'azure-sas-signature', hint: ['sig='], regex: /([?&]sig=)[A-Za-z0-9%+/=_-]{16,}/g, keep: 'prefix' },
  // `Basic` followed by a word is prose; base64 credentials hold a digit, `+`, `/` or `=`.
  { name: 'basic-auth', hint: ['asic'], regex: /(\b[Bb]asic\s+)(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{12,}={0,2}/g, keep: 'prefix' },
  // `.env`, YAML and code assignments to a secret-named key (quotes may be JSON-escaped, as in
  // tool-call arguments). The value must hold a digit or a
  // symbol and not be code (`process.env.X`, a call, `${…}`), a bare number, or already redacted.
  {
    name: 'secret-assignment',
    hint: /secret|passw|token|key|credential/i,
    regex:
      /(\b[A-Za-z0-9_.-]{0,40}(?:secret|passw(?:or)?d|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|[_.-]key)[A-Za-z0-9_.-]{0,40}(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)(?!\d+\b|process\.env|\$\{|\[REDACTED|[\w$.]+\()(?=[^\s"'`,;()\\]*[0-9!#%^*+/=-])[^\s"'`,;()\\]{6,}/gi,
    keep: 'prefix',
  },
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
  checkOptions('createRedactor', options, REDACTOR_OPTIONS);
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
    // One search for any format's hint first: most text holds none.
    if (!ANY_HINT.test(out)) return out;
    for (const pattern of SECRET_PATTERNS) {
      if (!mayHold(out, pattern.hint)) continue;
      pattern.regex.lastIndex = 0;
      out = out.replace(pattern.regex, (...args: unknown[]) =>
        pattern.keep === 'prefix' ? `${String(args[1])}${marker(pattern.name)}` : marker(pattern.name),
      );
    }
    return out;
  };
}

/**
 * Every format's hint in one regex, searched once. The case-insensitive hints' letters become
 * `[xX]` classes, which match exactly what `i` does for ASCII letters without the `u` flag (a
 * non-ASCII letter never folds to an ASCII one there): one pass over the text instead of two.
 */
const ANY_HINT: RegExp = (() => {
  const parts: string[] = [];
  for (const { hint } of SECRET_PATTERNS) {
    if (hint instanceof RegExp) parts.push(hint.ignoreCase ? foldAscii(hint.source) : hint.source);
    else parts.push(...hint.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  return new RegExp(parts.join('|'));
})();

/** `source` (letters and `|` only, else a bug here) with each letter as `[xX]`. */
function foldAscii(source: string): string {
  if (/[\\[]/.test(source)) throw new Error(`redact: a case-insensitive hint must be letters and |: ${source}`);
  return source.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

function mayHold(text: string, hint: SecretPattern['hint']): boolean {
  if (hint instanceof RegExp) return hint.test(text);
  for (const part of hint) if (text.includes(part)) return true;
  return false;
}

/** The identity, for `redact: false`. */
export const noRedaction = (text: string): string => text;
