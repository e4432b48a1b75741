/**
 * The assistant interface (docs/design.md §20): every provider streams text deltas and ends with usage.
 */
import type { Message, SystemPromptRef, Usage } from '../session/api/data.js';

/** A system prompt read from disk: its text for the provider, its reference for the session. */
export interface LoadedSystemPrompt {
  text: string;
  ref: SystemPromptRef;
}

/** One streamed event. A stream is text deltas followed by at most one `usage` event. */
export type StreamEvent = { type: 'text'; text: string } | { type: 'usage'; usage: Usage };

export interface StreamOptions {
  signal?: AbortSignal;
  model?: string | null;
  /** System prompt text (not a message). */
  system?: string | null;
  /**
   * Set when the request asks for a summary (`/compact`; the instruction is the last message).
   * The SDK providers just send it; `echo` answers with a deterministic summary instead.
   */
  summary?: { focus: string | null };
}

export interface Provider {
  /** `echo`, `anthropic`, `openai`. */
  readonly name: string;
  /** The model in use, or null for echo. */
  readonly model: string | null;
  /** For the banner: `echo (offline)`, `anthropic claude-sonnet-5-5`. */
  readonly label: string;
  /**
   * Streams a reply to the whole conversation, as `messagesToSend` gives it for this provider
   * (every tool call closed, only its own reasoning and native parts). Throws `ProviderError` for failures a user can
   * act on (after yielding the text that did arrive). When `signal` aborts, the stream ends
   * without an error and without usage: check `signal.aborted` to mark the reply interrupted.
   */
  stream(messages: readonly Message[], options?: StreamOptions): AsyncIterable<StreamEvent>;
}
