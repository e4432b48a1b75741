/**
 * A stored conversation as a model input every provider accepts (docs/design.md §20): answers
 * replaced by `/retry` left out, every tool call followed by its result (one that none answers,
 * cut off by a crash or an interrupt, gets a result saying so), and reasoning and native
 * blocks sent back only to the provider that wrote them. Pure functions.
 */
import type { ContentPart } from '../api/message-parts.js';
import type { Message } from '../api/data.js';

/** The result a call that was never answered is given. */
export const UNANSWERED = '(no result: this tool call was never answered)';
/** The result a call is given when its reply was cut short (Ctrl-C, a stream cut, a crash). */
export const INTERRUPTED_CALL = '(no result: the reply making this tool call was interrupted before it was run)';

/**
 * Every tool call followed by its result, and every result after its call: a call that none
 * answers (the tool was interrupted, the conversation was imported cut short) gets one saying so
 * (`status: 'incomplete'`), after the results that did come; a result whose call is not in the
 * same turn before it (its call superseded, compacted away, or never made) is left out, and so
 * is a second result for a call already answered (a late duplicate, or one after a user
 * message, when the call was closed already). The APIs refuse either.
 */
export function closeToolCalls(messages: readonly Message[]): Message[] {
  const kept = answeringResults(messages);
  const answered = new Set([...kept.values()]);
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const at = i;
    if (m.role === 'tool' && !kept.has(i)) continue;
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    for (; messages[i + 1]?.role === 'tool'; i++) if (kept.has(i + 1)) out.push(messages[i + 1]!);
    for (const call of m.toolCalls) {
      if (answered.has(callKey(at, call.id))) continue;
      out.push({ role: 'tool', content: m.interrupted ? INTERRUPTED_CALL : UNANSWERED, timestamp: m.timestamp, toolCallId: call.id, name: call.name, status: 'incomplete' });
    }
  }
  return out;
}

/** A call, by the index of the message that made it and its ID (two replies may reuse an ID). */
function callKey(at: number, id: string): string {
  return `${at}:${id}`;
}

/**
 * The results that answer a call, by index, each with its call's key: the first result for a
 * call made earlier in the same turn (the assistant's messages and results since the last
 * user or system message: the Responses API gives each parallel call a message of its own).
 */
function answeringResults(messages: readonly Message[]): Map<number, string> {
  const kept = new Map<number, string>();
  let open = new Map<string, string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'user' || m.role === 'system') open = new Map();
    else if (m.role === 'assistant') for (const call of m.toolCalls ?? []) open.set(call.id, callKey(i, call.id));
    else {
      const key = m.toolCallId === undefined ? undefined : open.get(m.toolCallId);
      if (key === undefined) continue;
      kept.set(i, key);
      open.delete(m.toolCallId!);
    }
  }
  return kept;
}

/** Who wrote a part: its own `provider`, else its message's. */
function writer(part: ContentPart, message: Message): string | undefined {
  return (part.type === 'reasoning' || part.type === 'native' ? part.provider : undefined) ?? message.provider;
}

/**
 * The messages as `provider` may get them: reasoning and native parts another provider wrote
 * (or, with no provider named, any) are left out, since only their writer accepts them back.
 */
export function partsFor(messages: readonly Message[], provider: string | undefined): Message[] {
  return messages.map((m) => {
    if (!m.parts?.some((p) => p.type === 'reasoning' || p.type === 'native')) return m;
    const parts = m.parts.filter((p) => (p.type !== 'reasoning' && p.type !== 'native') || (provider !== undefined && writer(p, m) === provider));
    return { ...m, parts };
  });
}
