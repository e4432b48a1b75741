/**
 * The offline assistant: deterministic, no network, no SDK. Its reply shows how much of the
 * conversation it was given, so a resumed session can be checked by talking to it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message, Usage } from '../session/api/data.js';
import { plural } from '../text/plural.js';
import type { Provider, StreamEvent, StreamOptions } from '../models/types.js';

/** Default pause between echoed words, in ms (`CHATKEEP_ECHO_DELAY_MS`). */
export const DEFAULT_ECHO_DELAY_MS = 8;

/** The full reply echo gives to a conversation: `Echo: <last user message> (read <n> messages)`. */
export function echoReply(messages: readonly Message[]): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return `Echo: ${lastUser?.content ?? ''} (read ${plural(messages.length, 'message')})`;
}

/**
 * Echo's summary of a conversation (`messages` ends with the instruction, which it leaves out):
 * `Summary of <n> messages (focus: <focus>): you said "a"; "b".`, so tests can see what it read.
 */
export function echoSummary(messages: readonly Message[], focus: string | null): string {
  const read = messages.slice(0, -1);
  const said = read.filter((m) => m.role === 'user').map((m) => `"${m.content}"`);
  return `Summary of ${plural(read.length, 'message')}${focus ? ` (focus: ${focus})` : ''}: you said ${said.join('; ') || 'nothing'}.`;
}

/** Splits text into word chunks that keep their whitespace, so joining them gives the text back exactly. */
export function splitWords(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** Number of whitespace-separated words: echo's stand-in for tokens. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => w.length > 0).length;
}

/** Reads `CHATKEEP_ECHO_DELAY_MS` (a non-negative number), else the default. */
export function echoDelayFrom(env: Record<string, string | undefined>, watched = true): number {
  // The pause shows a reply streaming to a person; on a pipe no one watches it, and a long
  // message would take minutes to echo (100 KB took 150 s), so only a set value applies there.
  const fallback = watched ? DEFAULT_ECHO_DELAY_MS : 0;
  const raw = env.CHATKEEP_ECHO_DELAY_MS;
  if (raw === undefined || raw.trim() === '') return fallback;
  const ms = Number(raw);
  return Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}

/**
 * The `echo` provider. Streams its reply word by word, `delayMs` apart. When the signal
 * aborts, the stream ends at once without throwing and without a usage event: the caller
 * checks `signal.aborted` to mark the partial reply interrupted.
 */
export class EchoProvider implements Provider {
  readonly name = 'echo';
  readonly model = null;
  readonly label = 'echo (offline)';
  constructor(private readonly delayMs: number = DEFAULT_ECHO_DELAY_MS) {}

  async *stream(messages: readonly Message[], options: StreamOptions = {}): AsyncIterable<StreamEvent> {
    const { signal } = options;
    const reply = options.summary ? echoSummary(messages, options.summary.focus) : echoReply(messages);
    const chunks = splitWords(reply);
    for (const [i, text] of chunks.entries()) {
      if (signal?.aborted) return;
      if (i > 0 && this.delayMs > 0 && !(await pause(this.delayMs, signal))) return;
      yield { type: 'text', text };
    }
    if (signal?.aborted) return;
    const usage: Usage = {
      inputTokens: messages.reduce((sum, m) => sum + countWords(m.content), 0),
      outputTokens: countWords(reply),
    };
    yield { type: 'usage', usage };
  }
}

/** Waits `ms`; resolves false (instead of throwing) when the signal aborts first. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch (error) {
    if (signal?.aborted) return false;
    throw error;
  }
}
