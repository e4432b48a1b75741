/**
 * Gemini CLI's checkpoints (`/chat save TAG`: `~/.gemini/tmp/<project>/checkpoint-<TAG>.json`,
 * the tag URI-encoded; checked with 0.61.0): `{history, authType}`, the conversation as the
 * model is sent it (`{role: user|model, parts}`), with no ID, no times and nothing naming the
 * chat it was saved from. A checkpoint is a fork of that chat at its length: `checkpointSource`
 * finds the chat beside it whose messages begin with the checkpoint's. Its ID here is
 * `<project folder>.checkpoint-<TAG>`, its title the tag.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Message } from '../session/api/data.js';
import { INJECTED, message, parseGemini } from './gemini.js';
import { Transcript } from './transcript.js';
import { PeerFileError, type PeerConversation } from './types.js';
import { isObject } from '../util/is-object.js';

/** Whether a file name is a checkpoint's (`checkpoint-<TAG>.json`). */
export const isCheckpoint = (path: string): boolean => /^checkpoint-.+\.json$/.test(basename(path));

/** A checkpoint's file as a conversation, with no lineage yet. Pure. */
export function parseGeminiCheckpoint(text: string, path: string, fileTime: Date, cwd?: string): PeerConversation {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    throw new PeerFileError('not a Gemini CLI checkpoint (not JSON)');
  }
  // Older versions wrote the history alone, as an array.
  const history = Array.isArray(whole) ? whole : isObject(whole) && Array.isArray(whole.history) ? whole.history : undefined;
  if (!history) throw new PeerFileError('not a Gemini CLI checkpoint (no history)');
  const transcript = new Transcript();
  const answered = new Set<string>();
  let all = true;
  for (const [i, content] of history.entries()) {
    if (!isObject(content) || !Array.isArray(content.parts)) {
      all = false;
      continue;
    }
    // The context block Gemini CLI sends first shares its content with the first message typed.
    const parts = content.parts.filter((p) => !(isObject(p) && typeof p.text === 'string' && INJECTED.test(p.text)));
    if (parts.length !== content.parts.length) all = false;
    if (parts.length === 0) continue;
    const record = { id: `#${i}`, type: content.role === 'model' ? 'gemini' : content.role, content: parts };
    if (!message(transcript, record, fileTime, answered)) all = false;
  }
  // What had no place (the context block, thoughts): the whole file, kept once, as it was.
  if (!all) transcript.keep(JSON.stringify(whole));
  const tag = tagOf(path);
  return transcript.conversation(
    { tool: 'gemini', id: `${basename(dirname(path))}.checkpoint-${tag}`, path, cwd, title: tag, createdAt: undefined, model: null, branch: null, lines: 1 },
    'not a Gemini CLI checkpoint (no messages)',
  );
}

/**
 * The checkpoint as a fork of the chat it was saved from: of the chats in `chats/` beside it,
 * those whose messages begin with all of the checkpoint's; the one that says it saved this tag
 * (its `info` record) first, else the earliest. Its messages then are that chat's (with their
 * times, models and token counts). No such chat: the checkpoint as it is, with no lineage.
 */
export function checkpointSource(c: PeerConversation): PeerConversation {
  const dir = join(dirname(c.path), 'chats');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^session-.*\.jsonl?$/.test(n)).sort();
  } catch {
    return c;
  }
  const said = JSON.stringify(`saved with tag: ${tagOf(c.path)}.`).slice(1, -1);
  const found: { chat: PeerConversation; says: boolean }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const text = readFileSync(path, 'utf8');
      const chat = parseGemini(text, path, statSync(path).mtime, c.cwd);
      if (begins(chat.messages, c.messages)) found.push({ chat, says: text.includes(said) });
    } catch {
      // not a chat, or gone meanwhile: not the source
    }
  }
  found.sort((a, b) => Number(b.says) - Number(a.says) || a.chat.createdAt.getTime() - b.chat.createdAt.getTime());
  const source = found[0]?.chat;
  if (!source) return c;
  const messages = source.messages.slice(0, c.messages.length);
  return { ...c, createdAt: source.createdAt, updatedAt: messages[messages.length - 1]!.timestamp, messages, forkedFrom: { id: source.id, at: messages.length } };
}

/**
 * Whether `messages` begin with `head`, by role and text (not by tool call IDs: the history
 * holds the calls as the model made them, the chat as Gemini CLI numbered them).
 */
function begins(messages: readonly Message[], head: readonly Message[]): boolean {
  return head.length <= messages.length && head.every((m, i) => messages[i]!.role === m.role && messages[i]!.content === m.content);
}

function tagOf(path: string): string {
  const encoded = basename(path).replace(/^checkpoint-/, '').replace(/\.json$/, '');
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
