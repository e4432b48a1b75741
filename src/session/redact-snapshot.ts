/**
 * Redaction of a whole snapshot, for sessions that arrive from outside (an import): every text
 * a person or model wrote goes through the redactor, as it does when typed.
 */
import { cleanTitle } from './title.js';
import type { ArchivedSegment, Message, SessionSnapshot } from './types.js';

/** A copy of `snapshot` with secrets redacted from titles, summaries, the draft, config values and every message. */
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
  };
}
