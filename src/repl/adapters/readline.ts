/**
 * The `node:readline` adapter: a host's own line loop keeps its conversation as a chatkeep
 * session. `handle(line)` runs a slash command (`/sessions`, `/save`, `/load`, `/reset`,
 * `/fork`, `/title`, `/status`, `/export`, `/help`, `/quit`) and says whether the line was one;
 * `record(...)` journals the host's own exchange; `leave()` once the loop ends (Ctrl-D, `/quit`,
 * SIGTERM and a hang-up close the interface) saves the session and prints the way back.
 */
import type { Interface } from 'node:readline';
import { completeLine } from '../complete.js';
import type { SessionController } from '../controller.js';
import { dispatchLine } from '../dispatch.js';
import { showDone, showLines } from '../render.js';
import { READLINE_OPTIONS } from '../host-options.js';
import { checkOptions } from '../../session/api/check-options.js';
import { watchLeaving } from '../leaving.js';
import type { Leaving } from '../exit-lines.js';
import { openHost, refuse, SESSION_COMMANDS, showOpened, type AdapterOptions } from './open-host.js';

/** What /help says after the commands: what this adapter does with the rest, and nothing it does not do. */
const HELP_NOTES = ["Any other line is the host's to answer.", 'Ctrl-D closes the input; leaving saves the session.'];

/** A readline loop kept as a session. */
export interface ReadlineChat {
  /** Undefined when the session could not be opened (then `leave()` gives the exit code and `handle` takes every line as a command). */
  controller: SessionController | undefined;
  /** Runs `line` if it is a command (or skips it if empty) and resolves to true; false: the line is the host's to answer. */
  handle(line: string): Promise<boolean>;
  /**
   * Journals the host's exchange: the user's line and the answer (durable once it resolves), and
   * resolves to the answer as stored (secrets redacted): what to print. `append` on the
   * controller takes any messages.
   */
  record(line: string, answer: string): Promise<string>;
  /** Tab completion of command names and their arguments, for `createInterface({ completer })`. */
  complete(line: string): Promise<[string[], string]>;
  /**
   * Call once the loop has ended (the interface closed: /quit, Ctrl-D, SIGTERM, end of piped
   * input): saves and releases the session, prints the way back, resolves to the exit code.
   */
  leave(): Promise<number>;
}

/**
 * Keeps the loop over `rl` as a session (new, `resume: ID`, `continue: true`, or `fork`). When
 * it cannot be opened, says why in one line on `output` and closes `rl`; `leave()` then gives the
 * error's exit code.
 */
export async function attachReadline(rl: Interface, options: AdapterOptions & { output: NodeJS.WritableStream }): Promise<ReadlineChat> {
  rl.pause();
  let opened;
  try {
    checkOptions('attachReadline', options, READLINE_OPTIONS, ['host', 'output']);
    opened = await openHost(options, options.output, [...SESSION_COMMANDS, 'help', 'quit'], '/', HELP_NOTES);
  } catch (err) {
    // Nowhere to say it: the host's own mistake is thrown back to it.
    if (!READLINE_OPTIONS.output.ok((options as Partial<typeof options> | undefined)?.output)) throw err;
    const code = refuse(options.output, err, options, () => rl.close());
    return { controller: undefined, leave: () => Promise.resolve(code), handle: () => Promise.resolve(true), record: () => Promise.resolve(''), complete: (line) => Promise.resolve([[], line]) };
  }
  const { controller, screen, context } = opened;
  showOpened(opened);

  // SIGTERM closes the interface; the loop's end calls leave(). A hang-up or a terminal that went
  // away saves first and closes the interface after: letting go of a dead terminal can end the
  // process (Node crashes on it now and then, SIGSEGV, seen 1 in 24 under load) before the save.
  let leaving: Promise<Leaving> | undefined;
  const leaveOnce = (): Promise<Leaving> => (leaving ??= controller.leave());
  const watch = watchLeaving({
    screen,
    input: inputOf(rl),
    // The prompt the loop draws after a hang-up fails to write (EIO): unheard, that error would
    // end the process before the save.
    output: options.output,
    signals: options.signals,
    leave: () => rl.close(),
    hangUp: () => {
      void leaveOnce().finally(() => rl.close());
      // A dead terminal's reads fail again and again: stopped, as chatkeep's CLI stops them.
      (inputOf(rl) as Partial<NodeJS.ReadStream>).destroy?.();
    },
    keepInputErrors: rl.terminal,
  });
  // The loop may prompt once more after the interface closed (`/quit`): on a closed interface
  // Node's prompt() resumes the input, which would keep the process from ending.
  rl.once('close', () => (rl.prompt = () => {}));
  controller.startAutosave();
  rl.resume();

  return {
    controller,
    async leave() {
      const { code, lines } = await leaveOnce();
      showLines(screen, lines);
      watch.detach();
      return code;
    },
    async handle(line) {
      const done = await dispatchLine(line, { controller, context });
      if (done.kind === 'chat') return false;
      if (done.kind === 'quit') rl.close();
      else if (done.kind === 'done') showDone(screen, done, controller.session);
      return true;
    },
    async record(line, answer) {
      const [, stored] = await controller.append({ role: 'user', content: line }, { role: 'assistant', content: answer });
      return stored!.content;
    },
    complete: (line) => completeLine(line, context.commands, context),
  };
}

/** The interface's input (Node keeps it as `input`; its type does not say so); the interface itself stands in without one. */
function inputOf(rl: Interface): NodeJS.ReadableStream {
  const input = (rl as Interface & { input?: unknown }).input;
  return typeof input === 'object' && input !== null && 'on' in input ? (input as NodeJS.ReadableStream) : (rl as unknown as NodeJS.ReadableStream);
}
