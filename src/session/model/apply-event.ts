/**
 * The one place an event changes a session's state. A live write journals the event, then
 * applies it here; a resume applies each journaled event here (replay.ts): the two can no
 * longer disagree.
 */
import type { Compaction, KnownEvent } from './events.js';
import { decodeMessage } from './message-codec.js';
import { rowLine } from './future-events.js';
import { uncompactInPlace } from './uncompact.js';
import type { Message, SessionSnapshot, ToolCall } from '../api/data.js';
import { addUsage, statsOf } from './stats.js';

/**
 * Replies being rebuilt from their deltas while replaying (a live session passes none: its
 * reply writer owns the text being streamed), by reply id.
 */
export type PendingReplies = Map<string, PendingReply>;

/** A streamed reply as its deltas rebuild it: its text, and its tool calls by index. */
export interface PendingReply {
  text: string;
  ts: string;
  index: number;
  calls: ToolCall[];
}

/** Applies one event to the state, in place; returns the message it added, if any. */
export function applyEvent(s: SessionSnapshot, event: KnownEvent, replies?: PendingReplies): Message | undefined {
  const at = new Date(event.ts);
  let added: Message | undefined;
  switch (event.type) {
    case 'message': {
      if (event.payload.replyId !== undefined) replies?.delete(event.payload.replyId);
      addMessage(s, (added = decodeMessage(event.payload.message)));
      break;
    }
    case 'delta': {
      if (!replies) break;
      const p = event.payload;
      const reply = replies.get(p.replyId) ?? { text: '', ts: event.ts, index: s.messages.length, calls: [] };
      // `replace`: the reply's whole text (and calls) so far, journaled again when a snapshot was taken mid-stream.
      if (p.replace) [reply.text, reply.calls] = ['', []];
      reply.text += p.text;
      for (const d of p.toolCalls ?? []) {
        const call = (reply.calls[d.index] ??= { id: '', name: '', arguments: '' });
        if (d.id !== undefined) call.id = d.id;
        if (d.name !== undefined) call.name = d.name;
        call.arguments += d.arguments ?? '';
      }
      replies.set(p.replyId, reply);
      break;
    }
    case 'reset': {
      const p = event.payload;
      if (p.summary !== undefined) compactConversation(s, at, { ...p, summary: p.summary, keep: p.keep ?? 0 });
      else archiveConversation(s, at);
      break;
    }
    case 'title':
      s.title = event.payload.title;
      s.titleSource = event.payload.source ?? 'user';
      break;
    case 'config':
      s.config[event.payload.key] = event.payload.value;
      break;
    case 'provider': {
      const { name, model, source } = event.payload;
      s.provider = source === undefined ? { name, model } : { name, model, source };
      break;
    }
    case 'system':
      s.systemPrompt = event.payload.ref;
      break;
    case 'draft':
      // No draft is no field at all, so older files and readers are unchanged.
      if (event.payload.text) s.draft = event.payload.text;
      else delete s.draft;
      break;
    case 'supersede':
      for (const i of event.payload.indexes) {
        const message = s.messages[i];
        if (message) message.superseded = true;
      }
      break;
    case 'git': {
      const { root, branch, head } = event.payload;
      // A stored git event without a root reads as an empty one, which says nothing.
      if (root !== '') s.git = { root, branch, head };
      break;
    }
    case 'graph-checkpoint':
    case 'graph-writes':
    case 'graph-checkpoints-deleted':
      // Kept as the line it is stored as, where the snapshot keeps it (graph-events.ts).
      (s.futureEvents ??= []).push({ seq: event.seq, ts: event.ts, type: event.type, line: rowLine(event.seq, event.ts, event.type, JSON.stringify(event.payload)) });
      break;
    case 'uncompact':
      uncompactInPlace(s, at);
      break;
  }
  if (at.getTime() > s.updatedAt.getTime()) s.updatedAt = at;
  return added;
}

/** Adds a message to the live conversation and its counters. */
export function addMessage(s: SessionSnapshot, message: Message): void {
  s.messages.push(message);
  s.stats.messageCount += 1;
  if (message.usage) addUsage(s.stats, message.usage, message.model);
}

/** Moves the live conversation into `archived` and clears it (the ID stays). */
export function archiveConversation(s: SessionSnapshot, at: Date): void {
  s.archived.push({ archivedAt: at, messages: s.messages, summary: s.summary, stats: { ...s.stats } });
  s.messages = [];
  s.summary = null;
  s.stats = { messageCount: 0, inputTokens: 0, outputTokens: 0 };
}

/**
 * Archives all but the last `keep` live messages as `/reset` archives them (each segment keeps
 * the summary it had), and makes `summary` the live one. The segment's counters are its
 * messages' plus what the summary cost, so the session's totals still add up.
 */
function compactConversation(s: SessionSnapshot, at: Date, c: Compaction): void {
  const cut = Math.max(0, s.messages.length - Math.max(0, c.keep));
  const archived = s.messages.slice(0, cut);
  const stats = statsOf(archived);
  if (c.usage) addUsage(stats, c.usage, c.model);
  s.archived.push({ archivedAt: at, messages: archived, summary: s.summary, stats });
  s.messages = s.messages.slice(cut);
  s.summary = c.summary;
  s.stats = c.stats ? structuredClone(c.stats) : statsOf(s.messages);
}

/** A streamed tool call's ID: its own, or, when none came (or an empty one), named after its reply and place. */
export function streamedCallId(id: string | undefined, replyId: string, index: number): string {
  return id || `${replyId}-${index}`;
}
