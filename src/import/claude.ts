/**
 * Claude Code's session files (`~/.claude/projects/<cwd with / as ->/<uuid>.jsonl`, checked
 * with 2.1.330): one JSON object per line. `user` and `assistant` lines carry the API's
 * messages (an assistant reply may be spread over several lines sharing `message.id`, one per
 * content block); lines link to their parent by `parentUuid`, so a rewound conversation leaves
 * branches: the one imported is the chain that ends at the last message. Titles come from
 * `custom-title`, `ai-title` or `summary` lines. A fork names the conversation its first
 * messages were copied from (`copiedFrom`). Pure.
 */
import type { ToolCall, Usage } from '../session/api/data.js';
import { PeerFileError, type PeerConversation } from './types.js';
import { argumentsText, dateOf, jsonLines, str, Transcript } from './transcript.js';
import { isObject } from '../util/is-object.js';

type Line = { line: string; record: Record<string, unknown> | undefined };

export function parseClaude(text: string, path: string, fileTime: Date): PeerConversation {
  const lines = jsonLines(text);
  const chain = mainChain(lines);
  if (chain.size === 0) throw new PeerFileError('not a Claude Code session (no user or assistant lines)');
  const transcript = new Transcript();
  let id: string | undefined;
  let cwd: string | undefined;
  let branch: string | null = null;
  let model: string | null = null;
  const titles: { custom?: string; ai?: string; summary?: string } = {};
  let first: Date | undefined;
  let at = fileTime;
  // The last message copied from another conversation, and that one's ID (see copiedFrom).
  let forkedFrom: { id: string; at: number } | undefined;
  for (const { line, record: r } of lines) {
    if (!r) {
      transcript.keep(line);
      continue;
    }
    at = dateOf(r.timestamp, at);
    const type = r.type;
    if (type === 'custom-title' && str(r.customTitle)) titles.custom = str(r.customTitle);
    else if (type === 'ai-title' && str(r.aiTitle)) titles.ai = str(r.aiTitle);
    else if (type === 'summary' && str(r.summary)) titles.summary = str(r.summary);
    const message = r.message;
    const onChain = typeof r.uuid === 'string' && chain.has(r.uuid);
    if ((type !== 'user' && type !== 'assistant') || !isObject(message) || !onChain || r.isMeta === true) {
      transcript.keep(line);
      continue;
    }
    id ??= str(r.sessionId);
    cwd = str(r.cwd) ?? cwd;
    if (str(r.gitBranch) && r.gitBranch !== 'HEAD') branch = r.gitBranch as string;
    first ??= at;
    const whole = type === 'user' ? userLine(transcript, message.content, at) : assistantLine(transcript, message, at);
    if (type === 'assistant' && str(message.model) && message.model !== '<synthetic>') model = message.model as string;
    const source = copiedFrom(r);
    if (source !== undefined) forkedFrom = { id: source, at: transcript.messages.length };
    // The structured copy of a tool's result, thinking, images: kept beside the message.
    if (!whole || r.toolUseResult !== undefined) transcript.keep(line);
  }
  return transcript.conversation({
    tool: 'claude',
    id: id ?? path.replace(/^.*\//, '').replace(/\.jsonl$/, ''),
    path,
    cwd,
    title: titles.custom ?? titles.ai ?? titles.summary ?? null,
    createdAt: first,
    model,
    branch,
    lines: lines.length,
    ...(forkedFrom && forkedFrom.id !== id ? { forkedFrom } : {}),
  }, 'not a Claude Code session (no user or assistant messages)');
}

/**
 * The UUIDs of the conversation's main chain: from the last user or assistant line that is not
 * a side chain (a subagent's), back through `parentUuid` (across a compaction's boundary, by
 * `logicalParentUuid`).
 */
function mainChain(lines: readonly Line[]): Set<string> {
  const byUuid = new Map<string, Record<string, unknown>>();
  let leaf: Record<string, unknown> | undefined;
  for (const { record: r } of lines) {
    if (!r || typeof r.uuid !== 'string') continue;
    byUuid.set(r.uuid, r);
    if ((r.type === 'user' || r.type === 'assistant') && r.isSidechain !== true && isObject(r.message)) leaf = r;
  }
  const chain = new Set<string>();
  for (let r = leaf; r && !chain.has(r.uuid as string); ) {
    chain.add(r.uuid as string);
    const parent = str(r.parentUuid) ?? str(r.logicalParentUuid);
    r = parent === undefined ? undefined : byUuid.get(parent);
  }
  return chain;
}

/**
 * The conversation a message line was copied from, when it was: a fork (`claude --resume ID
 * --fork-session`) begins with copies of the other conversation's lines under its own
 * `sessionId`, and Claude Code marks each copied reply with `requestSessionId` (the
 * conversation whose request made it); `/branch` marks every copied line with `forkedFrom:
 * {sessionId, messageUuid}`, the conversation branched from. The fork's own lines have neither.
 */
function copiedFrom(r: Record<string, unknown>): string | undefined {
  const own = str(r.sessionId);
  const branched = isObject(r.forkedFrom) ? str(r.forkedFrom.sessionId) : undefined;
  const source = branched ?? str(r.requestSessionId);
  return source !== undefined && source !== own ? source : undefined;
}

/** A user line: its text, and the tool results it carries; false when something had no place (an image). */
function userLine(transcript: Transcript, content: unknown, at: Date): boolean {
  if (typeof content === 'string') {
    transcript.user(content, at);
    return true;
  }
  if (!Array.isArray(content)) return false;
  let whole = true;
  const texts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) whole = false;
    else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      const result = blocksText(block.content);
      if (!result.whole || block.is_error === true) whole = false;
      transcript.toolResult(block.tool_use_id, result.text, at);
    } else if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else whole = false;
  }
  if (texts.length > 0) transcript.user(texts.join('\n\n'), at);
  return whole;
}

/** An assistant line: text and tool calls, added to the reply it is part of; false when something had no place (thinking). */
function assistantLine(transcript: Transcript, message: Record<string, unknown>, at: Date): boolean {
  const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content : [];
  let whole = Array.isArray(message.content) || typeof message.content === 'string';
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    if (!isObject(block)) whole = false;
    else if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      toolCalls.push({ id: block.id, name: block.name, arguments: argumentsText(block.input) });
    } else whole = false;
  }
  const u = message.usage;
  const usage: Usage | undefined = isObject(u) && typeof u.input_tokens === 'number' && typeof u.output_tokens === 'number'
    ? { inputTokens: u.input_tokens + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens), outputTokens: u.output_tokens }
    : undefined;
  const model = str(message.model);
  transcript.assistant(str(message.id), {
    text: texts.join('\n\n'),
    toolCalls,
    ...(model && model !== '<synthetic>' ? { model } : {}),
    ...(usage ? { usage } : {}),
  }, at);
  return whole;
}

/** A tool result's content as text: a string, or its text blocks (anything else makes it not whole). */
function blocksText(content: unknown): { text: string; whole: boolean } {
  if (typeof content === 'string') return { text: content, whole: true };
  if (!Array.isArray(content)) return { text: '', whole: content === undefined };
  const texts = content.filter((b): b is { type: 'text'; text: string } => isObject(b) && b.type === 'text' && typeof b.text === 'string');
  return { text: texts.map((b) => b.text).join('\n\n'), whole: texts.length === content.length };
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}
