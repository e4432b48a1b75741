/**
 * Codex CLI's rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, checked
 * with 0.169.0): one `{timestamp, type, payload}` per line. `session_meta` names the
 * conversation, its working directory and git branch; `response_item` lines are the Responses
 * API's items (messages, function calls and their outputs); `turn_context` carries the model.
 * The instructions Codex injects as user or developer messages are kept, not shown as typed.
 * Pure.
 */
import { PeerFileError, type PeerConversation } from './types.js';
import { argumentsText, dateOf, jsonLines, str, Transcript } from './transcript.js';
import { isObject } from '../util/is-object.js';

/** User messages Codex writes itself (context, instructions), not what the person typed. */
const INJECTED = /^\s*<(environment_context|user_instructions|skills_instructions|permissions instructions|turn_aborted|user_shell_command)\b/;

export function parseCodex(text: string, path: string, fileTime: Date, titles: ReadonlyMap<string, string> = new Map()): PeerConversation {
  const lines = jsonLines(text);
  const transcript = new Transcript();
  let id: string | undefined;
  let cwd: string | undefined;
  let branch: string | null = null;
  let model: string | null = null;
  let title: string | null = null;
  let created: Date | undefined;
  let history: PeerConversation['history'];
  let at = fileTime;
  for (const { line, record: r } of lines) {
    const payload = r?.payload;
    if (!r || !isObject(payload)) {
      transcript.keep(line);
      continue;
    }
    at = dateOf(r.timestamp, at);
    if (r.type === 'session_meta') {
      id ??= str(payload.id) ?? str(payload.session_id);
      cwd ??= str(payload.cwd);
      created ??= dateOf(payload.timestamp, at);
      if (isObject(payload.git) && str(payload.git.branch)) branch = payload.git.branch as string;
      history ??= forkBase(payload);
    } else if (r.type === 'turn_context') {
      model = str(payload.model) ?? model;
      cwd ??= str(payload.cwd);
    } else if (r.type === 'event_msg' && payload.type === 'thread_name_updated' && str(payload.thread_name)) {
      title = payload.thread_name as string;
    }
    if (r.type !== 'response_item' || !item(transcript, payload, at, model)) transcript.keep(line);
  }
  if (id === undefined) throw new PeerFileError('not a Codex CLI rollout (no session_meta line)');
  return transcript.conversation(
    { tool: 'codex', id, path, cwd, title: titles.get(id) ?? title, createdAt: created, model, branch, lines: lines.length, ...(history ? { history } : {}) },
    'not a Codex CLI rollout (no messages)',
  );
}

/**
 * A fork's `session_meta` (`codex fork`, `codex exec fork`): `forked_from_id` names the
 * conversation, and `forked_from_ordinal_exclusive` (or `history_base.end_ordinal_exclusive`)
 * how many lines of its file the fork begins with; the fork's file holds only what came after.
 */
function forkBase(meta: Record<string, unknown>): PeerConversation['history'] {
  const base = isObject(meta.history_base) ? meta.history_base : {};
  const id = str(meta.forked_from_id) ?? str(base.thread_id);
  const lines = typeof meta.forked_from_ordinal_exclusive === 'number' ? meta.forked_from_ordinal_exclusive : base.end_ordinal_exclusive;
  return id !== undefined && typeof lines === 'number' && Number.isInteger(lines) && lines >= 0 ? { id, lines } : undefined;
}

/** One Responses API item into the transcript; false when it had no place (reasoning, web searches, injected context). */
function item(transcript: Transcript, p: Record<string, unknown>, at: Date, model: string | null): boolean {
  if (p.type === 'message') {
    const text = contentText(p.content);
    if (p.role === 'user' && !INJECTED.test(text)) transcript.user(text, at);
    else if (p.role === 'assistant') transcript.assistant(undefined, { text, ...(model ? { model } : {}) }, at);
    else return false;
    return true;
  }
  if ((p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call') && str(p.call_id)) {
    const args = p.type === 'function_call' ? p.arguments : p.type === 'custom_tool_call' ? p.input : p.action;
    const name = str(p.name) ?? (p.type === 'local_shell_call' ? 'local_shell' : 'tool');
    transcript.assistant(undefined, { toolCalls: [{ id: p.call_id as string, name, arguments: argumentsText(args) }] }, at);
    return true;
  }
  if ((p.type === 'function_call_output' || p.type === 'custom_tool_call_output') && str(p.call_id)) {
    transcript.toolResult(p.call_id as string, outputText(p.output), at);
    return typeof p.output === 'string';
  }
  return false;
}

/** The text of a message's content parts (`input_text`, `output_text`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).filter(Boolean).join('\n\n');
}

/** A tool output: text, or `{content}` (older versions), or its JSON. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isObject(output) && typeof output.content === 'string') return output.content;
  if (Array.isArray(output)) return contentText(output);
  return JSON.stringify(output ?? null);
}
