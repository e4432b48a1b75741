/**
 * The `node:repl` adapter: Node's own REPL kept as a chatkeep session. `.sessions .save .load
 * .reset .fork .title .status .export` are the component's commands (registered with
 * `defineCommand`, so `.help` and Tab list them); every evaluated line and the result it printed
 * are journaled as a user message and its answer; `.exit`, Ctrl-D, SIGTERM and a hang-up save
 * the session and print the way back, written for the host's program.
 */
import type { REPLServer } from 'node:repl';
import type { SessionController } from '../controller.js';
import { runCommand } from '../dispatch.js';
import { journalEvaluations } from './journal-evaluations.js';
import { summaryOf } from '../commands/help.js';
import { errorLine } from '../host-words.js';
import { ADAPTER_OPTIONS } from '../host-options.js';
import { checkOptions } from '../../session/api/check-options.js';
import { showDone, showLines } from '../render.js';
import { watchLeaving } from '../leaving.js';
import { openHost, refuse, SESSION_COMMANDS, showOpened, type AdapterOptions, type OpenedHost } from './open-host.js';

/** A REPL kept as a session. */
export interface AttachedRepl {
  /** Undefined when the session could not be opened (then `closed` gives the exit code: 2 bad input, 3 held elsewhere). */
  controller: SessionController | undefined;
  /** Resolves to the exit code once the REPL has closed and the session is saved (1: the close failed). */
  closed: Promise<number>;
}

/**
 * Keeps `server` as a session (new, `resume: ID`, `continue: true` for the latest, or `fork`).
 * Input is paused until the session is open. When it cannot be opened, says why in one line on
 * the REPL's output and closes it; `closed` then gives the error's exit code.
 */
export async function attach(server: REPLServer, options: AdapterOptions): Promise<AttachedRepl> {
  // Lines typed meanwhile wait: every one is journaled into the session once it is open.
  server.pause();
  let opened: OpenedHost;
  try {
    checkOptions('attach', options, ADAPTER_OPTIONS, ['host']);
    opened = await openHost(options, server.output, SESSION_COMMANDS, '.');
  } catch (err) {
    return { controller: undefined, closed: Promise.resolve(refuse(server.output, err, options, () => server.close())) };
  }
  const { controller, screen, context } = opened;
  // The prompt is up already: the banner goes on its own line, then the prompt again.
  screen.raw('\r\x1b[2K');
  showOpened(opened);
  // Journal writes, commands and leaving run one after another, in the order they were asked
  // for: lines pasted or piped faster than a command answers still run in order.
  let queue = Promise.resolve();
  const inTurn = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch((err: unknown) => screen.error(errorLine(err, context.ui.words)));
  };
  journalEvaluations(server, controller, inTurn);

  for (const command of context.commands) {
    server.defineCommand(command.name, {
      help: summaryOf(command, context),
      action(args: string) {
        server.clearBufferedCommand();
        inTurn(async () => {
          const done = await runCommand(command, args, { controller, context });
          if (done.kind === 'done') showDone(screen, done, controller.session);
          if (done.kind === 'quit') return void server.close();
          server.displayPrompt();
        });
      },
    });
  }

  let leaving: Promise<number> | undefined;
  /** Saves, releases and says the way back, once, whichever way out came first. */
  const leave = (): Promise<number> =>
    (leaving ??= new Promise<number>((resolve) =>
      inTurn(async () => {
        const { code, lines } = await controller.leave();
        showLines(screen, lines);
        watch.detach();
        resolve(code);
      }),
    ));
  const watch = watchLeaving({
    screen,
    input: server.input,
    output: server.output,
    signals: options.signals,
    // The prompt is on screen: the exit lines start on a line of their own.
    leave: () => {
      screen.raw('\n');
      server.close();
    },
    // The terminal is gone: the session is saved before the REPL lets go of the dead terminal.
    hangUp: () => void leave().then(() => server.close()),
    // The REPL is a readline interface: it passes its input's errors on as its own, which nobody
    // hears, so a read that fails before the input's end (EIO) would end the program unsaved.
    keepInputErrors: server.terminal,
  });
  const closed = new Promise<number>((resolve) => server.once('exit', () => void leave().then(resolve)));
  controller.startAutosave();
  server.resume();
  server.displayPrompt();
  return { controller, closed };
}
