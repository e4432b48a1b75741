/**
 * `chatkeep sessions show ID`: one session's transcript, lineage and forks. Reading never takes a
 * lock, and a missing data directory holds no session (nothing is created).
 */
import { openSessions } from '../../index.js';
import { noSuchSession } from '../../session/api/ids.js';
import { futureEventsNote } from '../../session/model/future-events.js';
import { newerEvents } from '../../session/api/graph-events.js';
import { archivedBy, archivedText } from '../../session/api/archived-by.js';
import type { Message, SessionSnapshot } from '../../session/api/data.js';
import type { SessionReading, SessionSummary } from '../../session/api/listing.js';
import type { SessionManager } from '../../session/runtime/manager-api.js';
import { costField, problemError, usable } from '../sessions-common.js';
import { describeError } from '../../terminal/report-error.js';
import { commandOf } from '../chatkeep-host.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { providerLabel, sourceNote } from '../../terminal/describe-source.js';
import { formatMessage, lineage, plural, problemLabel, relativeTime, tokens } from '../../terminal/format.js';
import { sessionsMayExist } from '../../store/choice.js';
import { originText } from '../../import/origin.js';
import { visibleText } from '../../text/visible-text.js';

export async function runShow(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout } = environment;
  const now = environment.now?.() ?? new Date();
  const json = command.options.json === true;
  const id = command.id!;
  if (!sessionsMayExist(environment)) throw noSuchSession(id);
  const sessions = await openSessions({ home, store, cwd, env });
  const reading = await sessions.inspect(id);
  const problem = reading.problem && problemError(reading.id, reading.problem);
  if (!reading.snapshot) throw problem;
  const forks = await forksOf(sessions, reading.id);
  const owned = store !== undefined ? await (await import('./share-run.js')).ownershipFor(store, env, reading.id) : undefined;
  stdout.write(
    json
      ? `${JSON.stringify({ ...showJson(reading.snapshot, reading, forks), ...(owned ? { owner: owned.ownership.owner, shares: owned.ownership.shares } : {}) }, null, 2)}\n`
      : showText(reading.snapshot, reading, forks, now, environment.terminal === true, owned?.line, command.options.archived === true),
  );
  // A damaged session shows what is readable, then says what is wrong (exit 2); one recovered
  // from damage is whole as it is, and the line says what is kept aside.
  if (problem && !usable(reading.problem)) throw problem;
  if (problem) environment.stderr.write(describeError(problem, commandOf(environment)).text);
  return 0;
}

/**
 * A session's forks, oldest first, from the listing rows of every project (rows carry
 * `parentId`): one read of each project's index, no session file opened.
 */
async function forksOf(sessions: SessionManager, id: string): Promise<SessionSummary[]> {
  const forks = (await sessions.list({ all: true })).filter((row) => row.parentId === id);
  return forks.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** `sessions show --json` (docs/usage.md): the session's facts and its live messages. */
function showJson(s: SessionSnapshot, reading: SessionReading, forks: readonly SessionSummary[]): Record<string, unknown> {
  return {
    id: s.id,
    title: s.title,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    status: reading.status,
    ...(reading.problem ? { problem: reading.problem } : {}),
    project: s.project,
    ...(s.git ? { git: s.git } : {}),
    ...(s.parentId !== undefined ? { parentId: s.parentId, forkPoint: s.forkPoint ?? 0 } : {}),
    ...(s.importSource !== undefined ? { importSource: s.importSource } : {}),
    ...(s.importedFrom !== undefined ? { importedFrom: s.importedFrom } : {}),
    forks: forks.map((f) => ({ id: f.id, forkPoint: f.forkPoint ?? 0 })),
    provider: s.provider,
    systemPrompt: s.systemPrompt,
    ...(s.draft !== undefined ? { draft: s.draft } : {}),
    // Events a newer chatkeep wrote, kept as stored (the export carries them whole).
    ...(newerEvents(s.futureEvents).length ? { futureEvents: newerEvents(s.futureEvents).map(({ seq, ts, type }) => ({ seq, ts, type })) } : {}),
    messageCount: s.messages.length,
    archivedMessages: s.archived.reduce((n, segment) => n + segment.messages.length, 0),
    usage: { inputTokens: s.stats.inputTokens, outputTokens: s.stats.outputTokens },
    ...costField(s.stats, s.stats.byModel),
    // What /compact made of the archived messages: the model reads it ahead of `messages`.
    summary: s.summary,
    messages: s.messages.map(messageJson),
    // Conversations cleared by /reset and messages summarised by /compact, oldest first: kept, never deleted.
    archived: s.archived.map((a) => ({ archivedAt: a.archivedAt.toISOString(), summary: a.summary, messages: a.messages.map(messageJson), ...(a.by ? { by: a.by } : {}) })),
  };
}

function messageJson(m: Message): Record<string, unknown> {
  return {
    role: m.role,
    content: m.content,
    timestamp: m.timestamp.toISOString(),
    ...(m.usage ? { usage: m.usage } : {}),
    ...(m.interrupted ? { interrupted: true } : {}),
    ...(m.superseded ? { superseded: true } : {}),
    ...(m.model ? { model: m.model } : {}),
    ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId !== undefined ? { toolCallId: m.toolCallId } : {}),
  };
}

function showText(s: SessionSnapshot, reading: SessionReading, forks: readonly SessionSummary[], now: Date, terminal: boolean, ownerLine?: string, archived = false): string {
  const status = reading.problem ? problemLabel(reading.problem) : reading.status;
  const readable = reading.problem ? ' readable' : '';
  const head = [
    `${s.id}${s.title ? `  "${s.title}"` : ''}`,
    `  project ${s.project}${s.git?.branch ? ` (branch ${s.git.branch})` : ''} · ${status} · ${plural(s.messages.length, 'message')}${readable}${tokens(s.stats, s.stats.byModel)} · last active ${relativeTime(s.updatedAt, now)}`,
    settingsLine(s),
    ...(ownerLine !== undefined ? [ownerLine] : []),
    ...(s.parentId !== undefined ? [`  ${lineage(s.parentId, s.forkPoint)}`] : []),
    ...(s.importSource !== undefined ? [`  imported from ${originText(s.importSource)}`] : []),
    ...(s.importedFrom !== undefined ? [`  ${s.importSource ? 'exported as' : 'imported from'} ${originText(s.importedFrom)}`] : []),
    ...(forks.length > 0 ? [`  forks: ${forks.map((f) => `${f.id} (at message ${f.forkPoint ?? 0})`).join(', ')}`] : []),
    ...(newerEvents(s.futureEvents).length ? [`  ${futureEventsNote(s.futureEvents ?? [])}`] : []),
    '',
  ];
  // Each message under its time: how long ago for a person, ISO 8601 for a script.
  const time = (at: Date): string => `[${terminal ? relativeTime(at, now) : at.toISOString()}]`;
  const body = s.messages.flatMap((m) => [time(m.timestamp), ...formatMessage(m), '']);
  const before = archived ? archivedLines(s, time, terminal, now) : [];
  // Stored text shown safe: control characters as visible stand-ins (--json keeps them exact).
  return visibleText([...head, ...before, ...summaryLines(s), ...body].join('\n'));
}

/**
 * What /reset and /compact archived, oldest first, each part under a line saying which did it,
 * when, and where it was: before a fresh start, or before the summary that stands for it. The
 * live messages follow, as without --archived.
 */
function archivedLines(s: SessionSnapshot, time: (at: Date) => string, terminal: boolean, now: Date): string[] {
  if (s.archived.length === 0) return ['[nothing archived: /compact and /reset have not been used in this session]', ''];
  const lines = s.archived.flatMap((segment, i) => {
    const by = archivedBy(s, i);
    const when = terminal ? relativeTime(segment.archivedAt, now) : segment.archivedAt.toISOString();
    // What /uncompact set aside is a summary whose messages are live again: the summary is the part.
    if (by === 'uncompact') return [`[set aside by /uncompact, ${when}: this summary, its messages live again]`, '', segment.summary ?? '', ''];
    const then = by === 'compact' ? 'then a summary' : 'then a fresh start';
    return [
      `[archived by /${by}, ${when}: ${plural(segment.messages.length, 'message')}, ${then}]`,
      '',
      ...segment.messages.flatMap((m) => [time(m.timestamp), ...formatMessage(m), '']),
    ];
  });
  return [...lines, `[the live conversation${s.messages.length === 0 ? ' holds no message' : ''}]`, ''];
}

/**
 * Where the archived messages are (every conversation /reset cleared and every message /compact
 * summarised, kept in the session), then the summary /compact left, ahead of the messages it
 * stands for.
 */
function summaryLines(s: SessionSnapshot): string[] {
  if (s.archived.length === 0 && s.summary === null) return [];
  const where = 'archived in this session (--json lists them under archived)';
  if (s.summary === null) return [`[earlier messages: ${archivedText(s)}; ${where}]`, ''];
  const archived = s.archived.reduce((n, segment) => n + segment.messages.length, 0);
  return [`[summary by /compact of earlier messages; ${plural(archived, 'message')} ${where}]`, s.summary, ''];
}

/** `  assistant openai gpt-4o (set in the chat) · system prompt /p/brief.md (…) · unsent draft kept`. */
function settingsLine(s: SessionSnapshot): string {
  const parts = [`  assistant ${providerLabel(s.provider)}${sourceNote(s.provider.source)}`];
  if (s.systemPrompt) parts.push(`system prompt ${s.systemPrompt.path} (sha256 ${s.systemPrompt.sha256.slice(0, 12)}…)${sourceNote(s.systemPrompt.source)}`);
  if (s.draft !== undefined) parts.push('an unsent draft is kept for the next resume');
  return parts.join(' · ');
}
