/**
 * `/compact` in the REPL: asks the assistant for a summary of the conversation before the last
 * exchange, and stores it (`Session.compact`: the summarised messages are archived inside the
 * session). Also the offer to compact, from the token counts the provider reported.
 */
import { contextWindowOf } from '../../models/context-window.js';
import type { Provider } from '../../models/types.js';
import { keptByCompaction, messagesToSend } from '../../session/model/compaction.js';
import { nothingToCompact } from '../../repl/commands/compact.js';
import type { Message, Usage } from '../../session/api/data.js';
import type { Session } from '../../session/api/session-api.js';
import { plural } from '../../terminal/format.js';
import type { Screen } from '../../terminal/screen.js';
import { startSpinner } from './spinner.js';
import { groupDigits } from '../../terminal/digits.js';

/** The share of the model's context window past which compaction is offered (or done, with `--auto-compact`). */
export const COMPACT_AT = 0.8;

/** What the summary request asks for, steered by the user's focus when given. */
export function summaryInstruction(focus: string | null): string {
  return [
    'Summarise our conversation so far, to be read in place of it when we continue: what I want to achieve,',
    'what was decided and why, facts and constraints established, what was done, open questions and next steps.',
    'Keep names, numbers, file paths, commands and code identifiers exact. Write only the summary.',
    ...(focus ? [`Focus on: ${focus}`] : []),
  ].join(' ');
}

/** How a compaction ended: the line to show, and whether the session changed. */
export interface CompactOutcome {
  compacted: boolean;
  line: string;
}

/** What a compaction needs. */
export interface CompactOptions {
  session: Session;
  provider: Provider;
  system: string | null;
  focus: string | null;
  screen: Screen;
  /** Ctrl-C: the request stops and nothing changes. */
  signal: AbortSignal;
  /** False with `--no-persist`: the session has no ID to name. */
  persistent: boolean;
}

/**
 * Asks for the summary and stores it. A provider failure is thrown before anything is written
 * (the caller shows it in one line); an interrupted request changes nothing either.
 */
export async function runCompaction(options: CompactOptions): Promise<CompactOutcome> {
  const { session, provider, signal } = options;
  const none = nothingToCompact(session.messages);
  if (none) return { compacted: false, line: none };
  const keep = keptByCompaction(session.messages);
  const earlier = session.messages.slice(0, session.messages.length - keep);
  const request: Message[] = [
    ...messagesToSend(earlier, session.summary, { provider: provider.name }),
    { role: 'user', content: summaryInstruction(options.focus), timestamp: new Date() },
  ];
  let text = '';
  let usage: Usage | undefined;
  const spinner = startSpinner(options.screen, 'summarising…');
  try {
    const stream = provider.stream(request, { signal, model: provider.model, system: options.system, summary: { focus: options.focus } });
    for await (const event of stream) {
      if (signal.aborted) break;
      if (event.type === 'usage') usage = event.usage;
      else text += event.text;
    }
  } finally {
    spinner.stop();
  }
  if (signal.aborted) return { compacted: false, line: 'Compaction stopped: nothing changed.' };
  if (text.trim() === '') return { compacted: false, line: 'The assistant sent an empty summary: nothing changed.' };
  await session.compact(text.trim(), keep, { ...(usage ? { usage } : {}), ...(provider.model ? { model: provider.model } : {}) });
  return {
    compacted: true,
    line: `Summarised ${plural(earlier.length, 'earlier message')} (archived inside ${options.persistent ? session.id : 'this chat'}); the summary and the last ${plural(keep, 'message')} go with your next message.`,
  };
}

/** How full the model's context was on the last reply, when its model and token counts are known. */
export interface ContextFill {
  used: number;
  window: number;
  model: string;
}

/** The last reply's input plus output tokens against its model's context window: what the next request starts from. */
export function contextFill(messages: readonly Message[]): ContextFill | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || !last.usage || !last.model) return undefined;
  const window = contextWindowOf(last.model);
  if (!window) return undefined;
  return { used: last.usage.inputTokens + last.usage.outputTokens, window, model: last.model };
}

/**
 * After a turn whose reply filled the model's context past {@link COMPACT_AT}: a one-line offer
 * of `/compact`, or, with `auto` (`--auto-compact`), the compaction itself.
 */
export async function offerCompaction(messages: readonly Message[], screen: Screen, auto?: () => Promise<unknown>): Promise<void> {
  const fill = contextFill(messages);
  if (!fill || fill.used < fill.window * COMPACT_AT) return;
  if (!auto) return screen.status(`${describeFill(fill)}: /compact [focus] summarises the earlier messages to make room (--auto-compact does it without asking).`);
  const none = nothingToCompact(messages);
  screen.status(`${describeFill(fill)}: ${none ? none.replace(/^Nothing/, 'nothing') : 'compacting (--auto-compact).'}`);
  if (!none) await auto();
}

/** `Context 85% full (170,000 of 200,000 tokens of claude-sonnet-4-5)`. */
export function describeFill(fill: ContextFill): string {
  const percent = Math.floor((fill.used / fill.window) * 100);
  return `Context ${percent}% full (${groupDigits(fill.used)} of ${groupDigits(fill.window)} tokens of ${fill.model})`;
}
