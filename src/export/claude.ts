/**
 * `sessions export ID --format claude`: the session as a Claude Code session file (the format of
 * Claude Code 2.1.330, docs/import.md), which `claude --resume <its session ID>` continues once
 * it is placed at `~/.claude/projects/<directory with / as ->/<session ID>.jsonl`. The session
 * ID is derived from chatkeep's, so exporting twice gives the same bytes. Every tool call is
 * followed by its result (an unanswered one is closed, as for any provider); a result whose call
 * is not in the reply before it becomes text. Pure.
 */
import { createHash } from 'node:crypto';
import { closeToolCalls } from '../session/model/history.js';
import type { Message, SessionSnapshot } from '../session/api/data.js';

/** The Claude Code version whose format this writes. */
export const CLAUDE_FORMAT_VERSION = '2.1.330';

/** The Claude Code session ID of a chatkeep session: a UUID made from its ID. */
export function claudeSessionId(id: string): string {
  const h = createHash('sha256').update(`chatkeep:${id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function exportClaude(s: SessionSnapshot): string {
  const sessionId = claudeSessionId(s.id);
  const common = { isSidechain: false, userType: 'external', cwd: s.project, sessionId, version: CLAUDE_FORMAT_VERSION, gitBranch: s.git?.branch ?? '' };
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const push = (type: 'user' | 'assistant', message: Record<string, unknown>, at: Date): void => {
    const uuid = claudeSessionId(`${s.id}#${n++}`);
    lines.push(JSON.stringify({ parentUuid: parent, ...common, type, message, uuid, timestamp: at.toISOString() }));
    parent = uuid;
  };
  const messages = closeToolCalls(s.messages.filter((m) => !m.superseded));
  let calls = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      const blocks: Record<string, unknown>[] = m.content !== '' ? [{ type: 'text', text: m.content }] : [];
      for (const call of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: input(call.arguments) });
      if (blocks.length === 0) continue;
      calls = new Set((m.toolCalls ?? []).map((c) => c.id));
      push('assistant', {
        id: `msg_${claudeSessionId(`${s.id}@${n}`).replace(/-/g, '').slice(0, 24)}`,
        type: 'message',
        role: 'assistant',
        model: m.model ?? s.provider.model ?? '<synthetic>',
        content: blocks,
        stop_reason: m.toolCalls?.length ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: m.usage?.inputTokens ?? 0, output_tokens: m.usage?.outputTokens ?? 0 },
      }, m.timestamp);
    } else if (m.role === 'tool' && m.toolCallId !== undefined && calls.has(m.toolCallId)) {
      push('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }] }, m.timestamp);
    } else {
      calls = new Set();
      push('user', { role: 'user', content: text(m) }, m.timestamp);
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** A user message's text, or a result whose call is not the reply before it, spelled out. */
function text(m: Message): string {
  return m.role === 'tool' ? `[tool result${m.toolCallId ? ` ${m.toolCallId}` : ''}]\n${m.content}` : m.content;
}

/** A call's arguments as the object Claude's `input` is (text a tool took as it is stays text). */
function input(args: string): unknown {
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { input: value };
  } catch {
    return { input: args };
  }
}
