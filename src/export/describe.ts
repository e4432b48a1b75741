/**
 * What the readable exports (Markdown, HTML) say about a session and its messages, as plain
 * text: one wording for both, each format only marks it up. Pure and deterministic: times are
 * UTC, written the same on every machine.
 */
import { providerLabel } from '../terminal/describe-source.js';
import type { Message, SessionSnapshot } from '../session/api/data.js';
import { originText } from '../import/origin.js';
import { archivedBy, archivedText } from '../session/api/archived-by.js';

/** `2026-11-22 14:30:22 UTC`. */
export function utcTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The heading of the document: the title, else the ID. */
export function documentTitle(s: SessionSnapshot): string {
  return s.title ?? s.id;
}

/** The session's facts as label/value pairs, in the order shown. */
export function sessionFacts(s: SessionSnapshot): [string, string][] {
  const archived = archivedText(s);
  const facts: [string, string][] = [
    ['Session', s.id],
    ['Project', `${s.project}${s.git?.branch ? ` (branch ${s.git.branch})` : ''}`],
    ['Started', utcTime(s.createdAt)],
    ['Last active', utcTime(s.updatedAt)],
    ['Assistant', providerLabel(s.provider)],
    [
      'Messages',
      `${s.messages.length}${archived ? ` (and ${archived}, below)` : ''} · tokens ${s.stats.inputTokens} in, ${s.stats.outputTokens} out`,
    ],
  ];
  if (s.systemPrompt) facts.push(['System prompt', `${s.systemPrompt.path} (sha256 ${s.systemPrompt.sha256})`]);
  if (s.parentId !== undefined) facts.push(['Forked from', `${s.parentId} at message ${s.forkPoint ?? '?'}`]);
  if (s.importSource !== undefined) facts.push(['Imported from', originText(s.importSource)]);
  if (s.importedFrom !== undefined) facts.push([s.importSource ? 'Exported as' : 'Imported from', originText(s.importedFrom)]);
  return facts;
}

/** A message's heading: who wrote it, with what it is marked (`Assistant · gpt-4o · interrupted`). */
export function messageHeading(m: Message): string {
  const who = m.role === 'user' ? 'You' : m.role === 'assistant' ? 'Assistant' : m.role === 'system' ? 'System' : `Tool result${m.toolCallId ? ` (${m.toolCallId})` : ''}`;
  const marks = [m.role === 'assistant' ? m.model : undefined, m.interrupted ? 'interrupted' : undefined, m.superseded ? 'superseded by /retry' : undefined];
  return [who, ...marks.filter((mark): mark is string => mark !== undefined)].join(' · ');
}

/** One conversation of the session: the earlier ones cleared by `/reset` or summarised by `/compact`, then the live one. */
export interface Part {
  heading: string;
  summary: string | null;
  messages: readonly Message[];
}

const ARCHIVED_BY = { reset: 'cleared by /reset', compact: 'summarised by /compact', uncompact: 'a summary set aside by /uncompact' } as const;

/** The conversations in order: each archived segment, then the current one. */
export function sessionParts(s: SessionSnapshot): Part[] {
  const parts: Part[] = s.archived.map((segment, i) => ({
    heading: `Earlier conversation ${i + 1} of ${s.archived.length}, ${ARCHIVED_BY[archivedBy(s, i)]} on ${utcTime(segment.archivedAt)}`,
    summary: segment.summary,
    messages: segment.messages,
  }));
  parts.push({ heading: s.archived.length > 0 ? 'Current conversation' : 'Conversation', summary: s.summary, messages: s.messages });
  return parts;
}
