/**
 * Gemini CLI's chat files (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, checked
 * with 0.61.0): a first line of metadata (`sessionId`, `projectHash`: the SHA-256 of the project
 * root), then message records upserted by `id`, `{$set: …}` metadata updates (a `$set` of
 * `messages` replaces them all) and `{$rewindTo: id}` cutting the conversation back. Older
 * versions wrote one JSON object with a `messages` array (`session-*.json`); both are read.
 * Replies (`type: gemini`) carry their tool calls, each with its result; the results also come
 * back as user records of `functionResponse` parts. Pure.
 */
import type { ToolCall, Usage } from '../session/api/data.js';
import { PeerFileError, type PeerConversation } from './types.js';
import { argumentsText, dateOf, jsonLines, str, Transcript } from './transcript.js';
import { isObject } from '../util/is-object.js';

type Rec = Record<string, unknown>;

/** User records Gemini CLI writes itself (its context block, hooks), not what the person typed. */
export const INJECTED = /^\s*<(session_context|hook_context)>/;

export function parseGemini(text: string, path: string, fileTime: Date, cwd?: string): PeerConversation {
  const whole = wholeObject(text);
  const lines = whole ? [] : jsonLines(text);
  let meta: Rec = {};
  // Insertion order is the conversation's order; a record seen again replaces the first in place.
  let records = new Map<string, { record: Rec; line: string }>();
  // Each message as written on its own line (with its time, model, tokens, tool calls): a resume
  // rewrites the history (`$set` of messages) in the shape the model is sent, with its own time.
  const written = new Map<string, { record: Rec; line: string }>();
  const messageMap = (messages: unknown[]): Map<string, { record: Rec; line: string }> => {
    const map = new Map<string, { record: Rec; line: string }>();
    const rewrite = messages.some((m) => isObject(m) && typeof m.id === 'string' && written.has(m.id));
    for (const m of messages) {
      if (!isObject(m) || typeof m.id !== 'string') continue;
      // Records of a rewrite never written on their own (results split off their call) take the time before them.
      map.set(m.id, written.get(m.id) ?? { record: rewrite ? { ...m, timestamp: undefined } : m, line: JSON.stringify(m) });
    }
    return map;
  };
  const other: string[] = [];
  const replay = (r: Rec, line: string): void => {
    if (typeof r.$rewindTo === 'string') {
      const ids = [...records.keys()];
      const from = ids.indexOf(r.$rewindTo);
      records = new Map(from < 0 ? [] : [...records].slice(0, from));
      other.push(line);
    } else if (typeof r.id === 'string') {
      const entry = { record: r, line };
      written.set(r.id, entry);
      records.set(r.id, entry);
    }
    else if (isObject(r.$set)) {
      if (Array.isArray(r.$set.messages)) records = messageMap(r.$set.messages);
      const { messages: _messages, ...rest } = r.$set;
      meta = { ...meta, ...rest };
      other.push(line);
    } else if (typeof r.sessionId === 'string') {
      if (Array.isArray(r.messages)) records = messageMap(r.messages);
      const { messages: _messages, ...rest } = r;
      meta = { ...meta, ...rest };
      other.push(line);
    } else other.push(line);
  };
  if (whole) replay(whole, text.trim());
  else for (const { line, record } of lines) record ? replay(record, line) : other.push(line);
  const id = str(meta.sessionId);
  if (id === undefined) throw new PeerFileError('not a Gemini CLI chat (no sessionId)');
  const transcript = new Transcript();
  for (const line of other) transcript.keep(line);
  let model: string | null = null;
  let at = dateOf(meta.startTime, fileTime);
  const answered = new Set<string>();
  for (const { record: r, line } of records.values()) {
    at = dateOf(r.timestamp, at);
    if (r.type === 'gemini' && str(r.model)) model = r.model as string;
    if (!message(transcript, r, at, answered)) transcript.keep(line);
  }
  const started = meta.startTime === undefined ? undefined : dateOf(meta.startTime, fileTime);
  return transcript.conversation(
    { tool: 'gemini', id, path, cwd, title: str(meta.summary) ?? null, createdAt: started, model, branch: null, lines: whole ? 1 : lines.length },
    'not a Gemini CLI chat (no messages)',
  );
}

/** One message record into the transcript; false when something in it had no place (thoughts, info lines, injected context). */
export function message(transcript: Transcript, r: Rec, at: Date, answered: Set<string>): boolean {
  const parts = Array.isArray(r.content) ? r.content : typeof r.content === 'string' ? [{ text: r.content }] : [];
  if (r.type === 'user') {
    let whole = true;
    const texts: string[] = [];
    for (const part of parts) {
      if (!isObject(part)) whole = false;
      else if (typeof part.text === 'string') texts.push(part.text);
      else if (isObject(part.functionResponse)) {
        const callId = str(part.functionResponse.id);
        // Each result once: Gemini CLI records some twice.
        if (callId === undefined || answered.has(callId)) whole = false;
        else {
          answered.add(callId);
          transcript.toolResult(callId, responseText(part.functionResponse.response), at);
        }
      } else whole = false;
    }
    const text = texts.join('');
    if (INJECTED.test(text)) return false;
    transcript.user(text, at);
    return whole;
  }
  if (r.type !== 'gemini') return false;
  let whole = !(Array.isArray(r.thoughts) && r.thoughts.length > 0);
  const texts: string[] = [];
  const calls = Array.isArray(r.toolCalls) ? r.toolCalls.filter(isObject) : [];
  const toolCalls: ToolCall[] = calls
    .filter((c) => str(c.id) && str(c.name))
    .map((c) => ({ id: c.id as string, name: c.name as string, arguments: argumentsText(c.args) }));
  for (const part of parts) {
    if (isObject(part) && typeof part.text === 'string') texts.push(part.text);
    // The history as the model saw it (a `$set` on resume) holds the calls as parts.
    else if (isObject(part) && isObject(part.functionCall) && str(part.functionCall.name)) {
      const call = part.functionCall;
      const callId = str(call.id) ?? `${call.name as string}-${r.id as string}`;
      if (!toolCalls.some((c) => c.id === callId)) toolCalls.push({ id: callId, name: call.name as string, arguments: argumentsText(call.args) });
    } else whole = false;
  }
  const t = r.tokens;
  const usage: Usage | undefined = isObject(t) && typeof t.input === 'number' && typeof t.output === 'number' ? { inputTokens: t.input, outputTokens: t.output } : undefined;
  transcript.assistant(str(r.id), { text: texts.join(''), toolCalls, ...(str(r.model) ? { model: r.model as string } : {}), ...(usage ? { usage } : {}) }, at);
  // Each call's result as recorded with it; the functionResponse record that repeats it is kept as a duplicate.
  for (const call of calls) {
    const result = Array.isArray(call.result) ? call.result.find((p) => isObject(p) && isObject(p.functionResponse)) : undefined;
    const callId = str(call.id);
    if (callId && isObject(result) && isObject(result.functionResponse) && !answered.has(callId)) {
      answered.add(callId);
      transcript.toolResult(callId, responseText(result.functionResponse.response), at);
    }
  }
  return whole;
}

/** The file as one JSON object (the older format), else undefined (JSONL). */
function wholeObject(text: string): Rec | undefined {
  try {
    const r: unknown = JSON.parse(text);
    return isObject(r) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** A function response's text: `{output}`, `{error}`, or its JSON. */
function responseText(response: unknown): string {
  if (isObject(response) && typeof response.output === 'string') return response.output;
  if (isObject(response) && typeof response.error === 'string') return `Error: ${response.error}`;
  return JSON.stringify(response ?? null);
}
