/**
 * Snapshot migrations: pure functions from one schemaVersion's decoded object to the next.
 * `MIGRATIONS[n]` turns version n into n + 1.
 */

/** The schemaVersion this build writes. */
export const SCHEMA_VERSION = 3;

type Json = Record<string, unknown>;

/**
 * Version 1 (chatkeep 0.0.x): `created`/`updated`, `cwd`, a `closed` flag, the provider as
 * two strings, and messages as `{role, text, at, tokens?: {in, out}}`.
 */
function v1ToV2(old: Json): Json {
  const messages = (Array.isArray(old.messages) ? old.messages : []).map((raw: Json) => {
    const tokens = raw.tokens as { in?: number; out?: number } | undefined;
    return {
      role: raw.role,
      content: raw.text ?? '',
      timestamp: raw.at,
      ...(tokens ? { usage: { inputTokens: tokens.in ?? 0, outputTokens: tokens.out ?? 0 } } : {}),
    };
  });
  const usage = messages.reduce(
    (sum, m) => ({
      inputTokens: sum.inputTokens + (m.usage?.inputTokens ?? 0),
      outputTokens: sum.outputTokens + (m.usage?.outputTokens ?? 0),
    }),
    { inputTokens: 0, outputTokens: 0 },
  );
  return {
    format: 'chatkeep.session',
    schemaVersion: 2,
    id: old.id,
    title: old.title ?? null,
    createdAt: old.created,
    updatedAt: old.updated ?? old.created,
    status: old.closed === false ? 'interrupted' : 'closed',
    project: old.cwd ?? '',
    host: '',
    pid: 0,
    toolVersion: typeof old.version === 'string' ? old.version : 'unknown',
    provider: { name: typeof old.provider === 'string' ? old.provider : 'echo', model: old.model ?? null },
    systemPrompt: null,
    config: {},
    messages,
    summary: null,
    archived: [],
    stats: { messageCount: messages.length, ...usage },
    journalSeq: typeof old.journalSeq === 'number' ? old.journalSeq : 0,
  };
}

/**
 * Version 3 (agents' conversations, docs/design.md §15) only adds: the `system` role, content in
 * `parts`, a message's `id`, `name`, `status`, `provider`, `metadata` and `native`, and
 * `usage.details`. Every version-2 file is a version-3 file as it is; only the number changes.
 * Works on the decoded snapshot and on its JSON alike (it touches no Date).
 */
function v2ToV3(old: Json): Json {
  return { ...old, schemaVersion: 3 };
}

const MIGRATIONS: Record<number, (old: Json) => Json> = { 1: v1ToV2, 2: v2ToV3 };

/** The first version whose migrations to SCHEMA_VERSION touch no Date: its JSON can be migrated without superjson. */
export const JSON_MIGRATABLE_FROM = 2;

/**
 * Builds of 2026-11-25 (unreleased) stored a conversation's source from another tool in
 * `importedFrom`; it belongs in `importSource`, which older builds read past. Applied to every
 * snapshot read (session.json, an export), of any version; pure: returns `s` or a new object.
 */
export function settleImportSource<T extends { importedFrom?: unknown; importSource?: unknown }>(s: T): T {
  if (typeof s.importedFrom !== 'object' || s.importedFrom === null) return s;
  const { importedFrom, ...rest } = s;
  return { ...rest, importSource: s.importSource ?? importedFrom } as T;
}

/** Migrates a decoded snapshot of `from` to SCHEMA_VERSION. Pure: returns a new object. */
export function migrate(snapshot: Json, from: number): Json {
  let current = snapshot;
  for (let version = from; version < SCHEMA_VERSION; version++) {
    const step = MIGRATIONS[version];
    if (!step) throw new Error(`no migration from schemaVersion ${version}`);
    current = step(current);
  }
  return current;
}
