/**
 * A stored conversation as a model input every provider accepts (docs/design.md §20): answers
 * replaced by `/retry` left out, every tool call followed by its result (one that none answers,
 * cut off by a crash or an interrupt, gets a result saying so), and reasoning and native
 * blocks sent back only to the provider that wrote them. Pure functions.
 */
import type { ContentPart } from './message-parts.js';
import type { Message } from './data.js';

/** The result a call that was never answered is given. */
export const UNANSWERED = '(no result: this tool call was never answered)';
/** The result a call is given when its reply was cut short (Ctrl-C, a stream cut, a crash). */
export const INTERRUPTED_CALL = '(no result: the reply making this tool call was interrupted before it was run)';

/**
 * Every tool call followed by its result: a call that none answers (the tool was interrupted,
 * the conversation was imported cut short) gets one saying so (`status: 'incomplete'`), after
 * the results that did come.
 */
export function closeToolCalls(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const answered = new Set<string | undefined>();
    while (messages[i + 1]?.role === 'tool') {
      answered.add(messages[i + 1]!.toolCallId);
      out.push(messages[++i]!);
    }
    for (const call of m.toolCalls) {
      if (answered.has(call.id)) continue;
      out.push({ role: 'tool', content: m.interrupted ? INTERRUPTED_CALL : UNANSWERED, timestamp: m.timestamp, toolCallId: call.id, name: call.name, status: 'incomplete' });
    }
  }
  return out;
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
