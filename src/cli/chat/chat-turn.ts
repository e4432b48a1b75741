/**
 * One chat turn: the user's message goes on disk, the provider's reply streams into the
 * session (each piece journaled before it is shown, so a crash keeps everything on screen)
 * and onto the screen.
 */
import type { Provider } from '../../models/types.js';
import { messagesToSend } from '../../session/model/compaction.js';
import type { Usage } from '../../session/api/data.js';
import type { ReplyWriter, Session } from '../../session/api/session-api.js';
import type { MarkdownRenderer } from './markdown.js';
import { createMarkdownStream } from './markdown-stream.js';
import { visibleText } from '../../text/visible-text.js';
import type { Screen } from '../../terminal/screen.js';
import { redactionNote } from '../../terminal/format.js';
import { startSpinner } from './spinner.js';

/** What a turn needs. */
export interface ChatTurnOptions {
  session: Session;
  provider: Provider;
  text: string;
  screen: Screen;
  /** Aborted by Ctrl-C (or a signal): the reply stops and what arrived is kept, marked interrupted. */
  signal: AbortSignal;
  system?: string | null;
  /** Called with a note when redaction changed the user's line (so the model gets placeholders). */
  onRedacted?: (note: string) => void;
  /** Ask the last user message again (`/retry`): nothing is appended, `text` is ignored. */
  resend?: boolean;
  /** False with --no-persist: nothing is saved, and the redaction note does not say otherwise. */
  persistent?: boolean;
  /** Renders the reply as Markdown (a terminal); without it the text is shown as it arrives. */
  markdown?: MarkdownRenderer;
}

/** How the turn ended. */
export type ChatTurnOutcome = 'complete' | 'interrupted';

/**
 * Runs one turn. A provider failure is rethrown after the user's message (and any partial
 * reply, marked interrupted) is safely stored; the caller prints it and carries on.
 */
export async function runChatTurn(options: ChatTurnOptions): Promise<ChatTurnOutcome> {
  const { session, provider, screen, signal } = options;
  if (!options.resend) {
    const stored = await session.append({ role: 'user', content: options.text });
    const note = redactionNote(options.text, stored.content, options.persistent !== false);
    if (note) options.onRedacted?.(note);
  }
  // The writer starts with the first piece of text, so a reply that fails before any text
  // leaves no empty assistant message behind.
  let writer: ReplyWriter | undefined;
  // Only text that is on disk is shown. The library journals a streamed reply up to a safe
  // boundary (whole words, so a secret is never split past its redaction) and the rest when
  // the reply finishes; the screen follows the same boundary, lagging by at most a word, and
  // shows the text as stored (redacted). The screen only keeps how much of it is shown.
  let shown = 0;
  let usage: Usage | undefined;
  let failure: unknown;
  const spinner = startSpinner(screen);
  // The spinner runs until the first text is on screen.
  const write = (text: string): void => {
    spinner.stop();
    screen.reply(text);
  };
  // Rendered Markdown comes laid out to the width already (markdown-stream.ts): written as it is.
  const rendered = (text: string): void => {
    spinner.stop();
    screen.raw(text);
  };
  const markdown = options.markdown ? createMarkdownStream(options.markdown, rendered, () => screen.columns() ?? 80) : undefined;
  // A terminal shows control characters the model sent as visible stand-ins (as a replayed
  // transcript does); a pipe gets the reply exactly as written.
  const show = (text: string): void => {
    const safe = screen.terminal ? visibleText(text) : text;
    if (markdown) markdown.push(safe);
    else write(safe);
  };
  try {
    const conversation = messagesToSend(session.messages, session.summary, { provider: provider.name });
    const stream = provider.stream(conversation, { signal, model: provider.model, system: options.system ?? null });
    for await (const event of stream) {
      if (signal.aborted) break;
      if (event.type === 'usage') {
        usage = event.usage;
        continue;
      }
      if (event.text === '') continue;
      writer ??= session.beginReply();
      // Show only what is on disk: nothing on screen is lost if this process dies.
      const stored = await writer.push(event.text);
      if (stored !== '') {
        show(stored);
        shown += stored.length;
      }
    }
  } catch (err) {
    if (!signal.aborted) failure = err;
  } finally {
    spinner.stop();
  }
  const interrupted = signal.aborted || failure !== undefined;
  if (writer) {
    let reply: string;
    try {
      ({ content: reply } = await writer.finish({
        ...(usage ? { usage } : {}),
        ...(interrupted ? { interrupted: true } : {}),
        ...(provider.model ? { model: provider.model } : {}),
      }));
    } catch (err) {
      // The reply could not be finished (the lock or the store went away): what was shown is
      // stored as its pieces and comes back interrupted; its line ends before the error is said.
      markdown?.end();
      screen.endReply(' [interrupted]', markdown?.column());
      throw err;
    }
    if (reply.length > shown) show(reply.slice(shown));
    // Rendered Markdown ends without the reply's trailing whitespace (the marker needs its
    // space), or on a line of its own already (after a closing code fence).
    const lineEnded = markdown?.end() ?? false;
    if (!lineEnded) screen.endReply(interrupted ? `${!markdown && /\s$/.test(reply) ? '' : ' '}[interrupted]` : undefined, markdown?.column());
    else if (interrupted) screen.endReply('[interrupted]');
  } else if (signal.aborted) {
    screen.warn('[interrupted]');
  }
  if (failure !== undefined) throw failure;
  return interrupted ? 'interrupted' : 'complete';
}
