/**
 * The state an imported session is written with: the snapshot from outside, redacted as typed
 * text is, with this data directory's ID and project and this process as its writer. Pure.
 */
import { hostname } from 'node:os';
import { cleanTitle } from '../api/title.js';
import type { ArchivedSegment, Message, ProjectInfo, SessionSnapshot } from '../api/data.js';

/**
 * `snapshot` as session `id` of `project`, closed, redacted; `importedFrom` records the ID it
 * had when that was taken here (else it keeps the one it came with, if any).
 */
export function importedState(
  snapshot: SessionSnapshot,
  target: { id: string; project: ProjectInfo; redact: (text: string) => string; toolVersion: string },
): SessionSnapshot {
  // Under a new ID: the one it had is recorded (a session read from another tool keeps its importSource too).
  const importedFrom = target.id === snapshot.id ? snapshot.importedFrom : snapshot.id;
  const state: SessionSnapshot = {
    ...redactSnapshot(snapshot, target.redact),
    id: target.id,
    project: target.project.path,
    status: 'closed',
    host: hostname(),
    pid: process.pid,
    toolVersion: target.toolVersion,
    journalSeq: 0,
    ...(importedFrom !== undefined ? { importedFrom } : {}),
  };
  delete state.savedBy;
  return state;
}

/**
 * A copy of `snapshot` with secrets redacted from titles, summaries, the draft, config values,
 * every message and the source lines an import from another tool kept.
 */
export function redactSnapshot(snapshot: SessionSnapshot, redact: (text: string) => string): SessionSnapshot {
  const message = (m: Message): Message => ({
    ...m,
    content: redact(m.content),
    ...(m.toolCalls ? { toolCalls: m.toolCalls.map((call) => ({ ...call, arguments: redact(call.arguments) })) } : {}),
  });
  const summary = (text: string | null): string | null => (text === null ? null : redact(text));
  const segment = (a: ArchivedSegment): ArchivedSegment => ({ ...a, messages: a.messages.map(message), summary: summary(a.summary) });
  return {
    ...snapshot,
    title: snapshot.title === null ? null : cleanTitle(snapshot.title, redact),
    config: Object.fromEntries(
      Object.entries(snapshot.config).map(([key, value]) => [key, typeof value.value === 'string' ? { ...value, value: redact(value.value) } : value]),
    ),
    ...(snapshot.draft !== undefined ? { draft: redact(snapshot.draft) } : {}),
    messages: snapshot.messages.map(message),
    summary: summary(snapshot.summary),
    archived: snapshot.archived.map(segment),
    ...(snapshot.importSource?.kept
      ? { importSource: { ...snapshot.importSource, kept: snapshot.importSource.kept.map((k) => ({ at: k.at, line: redact(k.line) })) } }
      : {}),
  };
}
