import type { ConfigSource, ConfigValue, GitContext, Message, ModelUsage, ProviderRecord, SessionSnapshot, SessionStats, SystemPromptRef, ToolCall, Usage } from './data.js';
import type { SessionEvent } from './store.js';

/** A message as journaled: the timestamp as an ISO string, plus the reply it finishes. */
export interface JournaledMessage extends Omit<Message, 'timestamp'> {
  timestamp: string;
}

/** What replaying the journal over a snapshot recovered. */
export interface ReplayResult {
  /** Message events applied (including replies rebuilt from their deltas). */
  recoveredMessages: number;
  /** Events past the snapshot. */
  applied: number;
  /** Highest seq seen (at least the snapshot's). */
  lastSeq: number;
  /** Replies whose deltas were journaled but never finished, by reply id (rebuilt as interrupted messages). */
  unfinishedReplies: { replyId: string; message: Message }[];
}

/** Adds a message to the live conversation and its counters. */
export function addMessage(s: SessionSnapshot, message: Message): void {
  s.messages.push(message);
  s.stats.messageCount += 1;
  if (message.usage) addUsage(s.stats, message.usage, message.model);
}

/** Adds tokens (of `model`, when known) to `stats`, in place. */
function addUsage(stats: SessionStats, usage: Usage, model: string | undefined): void {
  stats.inputTokens += usage.inputTokens;
  stats.outputTokens += usage.outputTokens;
  if (model) addModelUsage((stats.byModel ??= []), model, usage);
}

/** The counters of these messages. */
export function statsOf(messages: readonly Message[]): SessionStats {
  const stats: SessionStats = { messageCount: messages.length, inputTokens: 0, outputTokens: 0 };
  for (const m of messages) if (m.usage) addUsage(stats, m.usage, m.model);
  return stats;
}

/** Adds `usage` to `model`'s entry in per-model totals, in place. */
export function addModelUsage(totals: ModelUsage[], model: string, usage: Usage): void {
  let entry = totals.find((t) => t.model === model);
  if (!entry) totals.push((entry = { model, inputTokens: 0, outputTokens: 0 }));
  entry.inputTokens += usage.inputTokens;
  entry.outputTokens += usage.outputTokens;
}

/** Moves the live conversation into `archived` and clears it (the ID stays). */
export function archiveConversation(s: SessionSnapshot, at: Date): void {
  s.archived.push({ archivedAt: at, messages: s.messages, summary: s.summary, stats: { ...s.stats } });
  s.messages = [];
  s.summary = null;
  s.stats = { messageCount: 0, inputTokens: 0, outputTokens: 0 };
}

/**
 * What `/compact` records: a `reset` event whose payload carries these fields, so that a
 * chatkeep from before `/compact` reads it as a `/reset` (everything archived, nothing lost)
 * instead of as a damaged line.
 */
export interface Compaction {
  /** Stands for the archived messages from now on (sent ahead of the live ones). */
  summary: string;
  /** How many of the last live messages stay live. */
  keep: number;
  /** What asking for the summary cost, and the model that wrote it. */
  usage?: Usage;
  model?: string;
  /** The live counters it leaves: what a reader without the message bodies (a listing) takes. */
  stats?: SessionStats;
}

/**
 * Archives all but the last `keep` live messages as `/reset` archives them (each segment keeps
 * the summary it had), and makes `summary` the live one. The segment's counters are its
 * messages' plus what the summary cost, so the session's totals still add up.
 */
export function compactConversation(s: SessionSnapshot, at: Date, c: Compaction): void {
  const cut = Math.max(0, s.messages.length - Math.max(0, c.keep));
  const archived = s.messages.slice(0, cut);
  const stats = statsOf(archived);
  if (c.usage) addUsage(stats, c.usage, c.model);
  s.archived.push({ archivedAt: at, messages: archived, summary: s.summary, stats });
  s.messages = s.messages.slice(cut);
  s.summary = c.summary;
  s.stats = c.stats ? structuredClone(c.stats) : statsOf(s.messages);
}

/** A `reset` event's payload as a compaction, when it is one (a plain `/reset` has no summary). */
export function compactionFrom(p: Record<string, unknown>): Compaction | undefined {
  if (typeof p.summary !== 'string') return undefined;
  const c: Compaction = { summary: p.summary, keep: Number.isInteger(p.keep) ? (p.keep as number) : 0 };
  const usage = p.usage as Partial<Usage> | undefined;
  if (typeof usage?.inputTokens === 'number' && typeof usage.outputTokens === 'number') c.usage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
  if (typeof p.model === 'string') c.model = p.model;
  const stats = p.stats as Partial<SessionStats> | undefined;
  if (typeof stats?.messageCount === 'number' && typeof stats.inputTokens === 'number' && typeof stats.outputTokens === 'number') {
    c.stats = { messageCount: stats.messageCount, inputTokens: stats.inputTokens, outputTokens: stats.outputTokens };
    if (Array.isArray(stats.byModel)) c.stats.byModel = stats.byModel.map((m) => ({ ...m }));
  }
  return c;
}

/** A `provider` event's payload as the session's record (its source kept when it has one). */
export function providerRecord(p: Record<string, unknown>): ProviderRecord {
  const record: ProviderRecord = { name: String(p.name), model: typeof p.model === 'string' ? p.model : null };
  if (typeof p.source === 'string') record.source = p.source as ConfigSource;
  return record;
}

/** Keeps an unsent line; no draft is no field at all, so older files and readers are unchanged. */
export function setDraft(s: SessionSnapshot, text: string | null): void {
  if (text) s.draft = text;
  else delete s.draft;
}

/** Marks live messages (by index) superseded. */
export function supersede(s: SessionSnapshot, indexes: readonly number[]): void {
  for (const i of indexes) {
    const message = s.messages[i];
    if (message) message.superseded = true;
  }
}

function gitFrom(p: Record<string, unknown>): GitContext {
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return { root: String(p.root), branch: text(p.branch), head: text(p.head) };
}

/** Turns a journaled message back into a message. */
export function decodeMessage(m: JournaledMessage): Message {
  const message: Message = { role: m.role, content: String(m.content ?? ''), timestamp: new Date(m.timestamp) };
  if (Array.isArray(m.toolCalls)) message.toolCalls = m.toolCalls as ToolCall[];
  if (typeof m.toolCallId === 'string') message.toolCallId = m.toolCallId;
  if (m.usage) message.usage = m.usage as Usage;
  if (m.interrupted) message.interrupted = true;
  if (m.superseded) message.superseded = true;
  if (typeof m.model === 'string') message.model = m.model;
  return message;
}

/** A message as a journal payload. */
export function encodeMessage(m: Message): JournaledMessage {
  return { ...m, timestamp: m.timestamp.toISOString() };
}

/**
 * Applies the journal events past `s.journalSeq` to the snapshot, in place (DESIGN §3:
 * loading = snapshot + the journal after its seq). Deltas of a reply that never finished
 * become one assistant message marked `interrupted`, in the place the reply started.
 */
export function replay(s: SessionSnapshot, events: readonly SessionEvent[]): ReplayResult {
  let recoveredMessages = 0;
  let applied = 0;
  let lastSeq = s.journalSeq;
  const pending = new Map<string, { text: string; ts: string; index: number }>();
  for (const event of events) {
    if (event.seq <= s.journalSeq) continue;
    applied++;
    lastSeq = Math.max(lastSeq, event.seq);
    const at = new Date(event.ts);
    const p = event.payload;
    switch (event.type) {
      case 'message': {
        const replyId = typeof p.replyId === 'string' ? p.replyId : undefined;
        if (replyId) pending.delete(replyId);
        addMessage(s, decodeMessage(p.message as JournaledMessage));
        recoveredMessages++;
        break;
      }
      case 'delta': {
        const replyId = String(p.replyId);
        const reply = pending.get(replyId) ?? { text: '', ts: event.ts, index: s.messages.length };
        // `replace`: the reply's whole text so far, journaled again when a snapshot was taken mid-stream.
        reply.text = (p.replace === true ? '' : reply.text) + String(p.text ?? '');
        pending.set(replyId, reply);
        break;
      }
      case 'reset': {
        const compaction = compactionFrom(p);
        if (compaction) compactConversation(s, at, compaction);
        else archiveConversation(s, at);
        break;
      }
      case 'title':
        s.title = typeof p.title === 'string' ? p.title : null;
        // Title events of earlier builds have no source: their titles were chosen.
        s.titleSource = p.source === 'auto' ? 'auto' : 'user';
        break;
      case 'config':
        s.config[String(p.key)] = p.value as ConfigValue;
        break;
      case 'provider':
        s.provider = providerRecord(p);
        break;
      case 'system':
        s.systemPrompt = (p.ref as SystemPromptRef | null) ?? null;
        break;
      case 'draft':
        setDraft(s, typeof p.text === 'string' ? p.text : null);
        break;
      case 'supersede':
        supersede(s, Array.isArray(p.indexes) ? p.indexes.filter((i): i is number => Number.isInteger(i)) : []);
        break;
      case 'git':
        if (typeof p.root === 'string') s.git = gitFrom(p);
        break;
    }
    if (at.getTime() > s.updatedAt.getTime()) s.updatedAt = at;
  }
  const unfinishedReplies: ReplayResult['unfinishedReplies'] = [];
  // Insert from the last position backwards so earlier indexes stay valid.
  const ordered = [...pending.entries()].sort((a, b) => b[1].index - a[1].index);
  for (const [replyId, reply] of ordered) {
    const message: Message = { role: 'assistant', content: reply.text, timestamp: new Date(reply.ts), interrupted: true };
    s.messages.splice(Math.min(reply.index, s.messages.length), 0, message);
    s.stats.messageCount += 1;
    recoveredMessages++;
    unfinishedReplies.unshift({ replyId, message });
  }
  s.journalSeq = lastSeq;
  return { recoveredMessages, applied, lastSeq, unfinishedReplies };
}
