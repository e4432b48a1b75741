/**
 * The one path from a typed line to what a host shows: parse it against the host's command
 * list, run the command, and carry out what it returned through the controller (a switch
 * saves and releases the old session). Every host (chatkeep's REPL, the node:repl and
 * readline adapters) goes through it, so /help, "did you mean" and the refusals read the same.
 */
import { plural } from '../terminal/format.js';
import type { SessionController } from './controller.js';
import type { HostLine } from './exit-lines.js';
import { errorLine } from './host-words.js';
import { parseSlashCommand } from './parse-slash-command.js';
import type { CommandContext, SlashCommand } from './types.js';

/** Command output (`info`: stdout when piped) or a line of the host's own (`status`, `warning`, `error`). */
export interface OutputLine {
  level: 'info' | HostLine['level'];
  text: string;
}

/** What a line came to. `chat`, `retry` and `compact` are the host's to carry out (they need its assistant). */
export type Dispatched =
  | { kind: 'empty' }
  | { kind: 'chat'; text: string }
  /** A command ran (or was refused): `output` to show; `switched` when the current session changed. */
  | { kind: 'done'; output: OutputLine[]; switched?: boolean }
  | { kind: 'quit' }
  /** Show `note`, then ask the last question again. */
  | { kind: 'retry'; note: string }
  | { kind: 'compact'; focus: string | null };

/** How a host dispatches: its controller, and its context (which holds the host's words: its prefix, its command names). */
export interface DispatchOptions {
  controller: SessionController;
  context: CommandContext;
}

const error = (text: string): OutputLine => ({ level: 'error', text });

/** Parses `line` against the context's command list and runs what it names. */
export async function dispatchLine(line: string, options: DispatchOptions): Promise<Dispatched> {
  const parsed = parseSlashCommand(line, options.context.commands);
  if (parsed.kind === 'empty') return parsed;
  if (parsed.kind === 'chat') return parsed;
  const prefix = options.context.ui.words.prefix ?? '/';
  if (parsed.kind === 'unknown') {
    const hint = parsed.suggestion ? ` Did you mean ${prefix}${parsed.suggestion}?` : '';
    return { kind: 'done', output: [error(`Unknown command ${prefix}${parsed.name}. Type ${prefix}help.${hint}`)] };
  }
  return runCommand(parsed.command, parsed.args, options);
}

/** Runs one command with `args` and carries out its result; a failure is one line. */
export async function runCommand(command: SlashCommand, args: string, options: DispatchOptions): Promise<Dispatched> {
  const { controller, context } = options;
  const prefix = context.ui.words.prefix ?? '/';
  if (command.needsStore && !context.session.persistent) {
    return { kind: 'done', output: [error(`${prefix}${command.name} needs a stored session, and this chat stores nothing (--no-persist). Start ${controller.host.program} without it to keep a chat.`)] };
  }
  let result;
  try {
    result = await command.run(context, args);
  } catch (err) {
    return { kind: 'done', output: [error(errorLine(err, context.ui.words))] };
  }
  switch (result.type) {
    case 'none':
      return { kind: 'done', output: [] };
    case 'quit':
      return { kind: 'quit' };
    case 'retry':
      return { kind: 'retry', note: result.content };
    case 'compact':
      return { kind: 'compact', focus: result.focus };
    case 'message':
      return { kind: 'done', output: [{ level: result.level, text: result.content }] };
    case 'switch': {
      const closed = await controller.switchTo(result.session, result.reason);
      const text = closed?.saved ? `Saved ${closed.id} (${plural(closed.messageCount, 'message')}). ${result.content}` : result.content;
      return { kind: 'done', output: [{ level: 'info', text }], switched: true };
    }
  }
}
