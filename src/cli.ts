/**
 * The command line: flags and subcommands → the parts that do the work. The only module that
 * reads the environment, the home directory and the process's streams. Everything heavy is
 * imported after the flags are known, so `--help` and `--version` stay instant.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseCommandLine, replHelp } from './cli/options.js';
import { chatkeepHost } from './cli/chatkeep-host.js';
import { hostCommand, type HostName } from './repl/host.js';
import type { Invocation } from './terminal/invocation.js';
import { closeDeadTerminals, closeTerminalsAtExit, terminalDescriptors } from './terminal/dead-terminal.js';
import { describeError } from './terminal/report-error.js';
import { forStream, wrappedOutput } from './terminal/wrap-output.js';
import type { ResumeHow } from './cli/start-chat.js';
import { packageVersion } from './version.js';

/**
 * Runs chatkeep with `argv` (the arguments after the program name); resolves to the exit code
 * (0 ok, 1 unexpected failure, 2 bad usage or input, 3 session in use).
 */
export async function main(argv: string[]): Promise<number> {
  // How chatkeep was started: every command it prints is written to run so (see invocation.ts).
  // Completed as the flags are read (`--home`, `--store`), and handed on to every part that prints one.
  const invocation: Invocation = { program: process.argv[1] ?? '', node: process.execPath, env: process.env };
  const host = chatkeepHost(invocation);
  try {
    return await run(argv, invocation, host);
  } catch (err) {
    const report = describeError(err, (args) => hostCommand(host, args));
    process.stderr.write(forStream(process.stderr, report.text));
    return report.exitCode;
  }
}

async function run(argv: string[], invocation: Invocation, host: HostName): Promise<number> {
  // A closed terminal or pipe (`chatkeep sessions list | head -1`) must not crash the process,
  // least of all before the session is saved.
  const ignore = (): void => {};
  process.stdout.on('error', ignore);
  process.stderr.on('error', ignore);
  const env = process.env;
  const cwd = process.cwd();
  const command = parseCommandLine(argv);
  const flagHome = command.options.home;
  const home = resolve(cwd, flagHome ?? (env.CHATKEEP_HOME?.trim() || join(homedir(), '.chatkeep')));
  if (flagHome !== undefined) invocation.home = home;
  // Said once: the next run finds the data directory private.
  const madePrivate = await (await import('./store/file/home.js')).makePrivate(home);
  if (madePrivate) process.stderr.write(forStream(process.stderr, `chatkeep: ${madePrivate}\n`));
  // Which store keeps the sessions: --store, else CHATKEEP_STORE, else the config's "store".
  const chooseStore = async (): Promise<string | undefined> => {
    const choice = await (await import('./store/choice.js')).chooseStore(command.options.store, env, home);
    if (choice.source === 'flag') invocation.store = command.options.store!;
    return choice.url;
  };
  if (command.kind === 'db') {
    const { runDbCommand } = await import('./cli/db-command.js');
    const store = command.action === 'help' ? undefined : await chooseStore();
    return runDbCommand(command, { store, env, host, stdout: command.options.json === true ? process.stdout : wrappedOutput(process.stdout) });
  }
  if (command.kind === 'sessions') {
    const { runSessionsCommand } = await import('./cli/sessions-subcommand.js');
    const columns = process.stdout.isTTY ? process.stdout.columns : undefined;
    // A question needs a person at a terminal on both ends (empty-trash asks before deleting).
    const askable = process.stdin.isTTY === true && process.stdout.isTTY === true;
    const confirm = askable
      ? async (question: string) => (await import('./terminal/prompter.js')).confirmOnTerminal(process.stdin, question)
      : undefined;
    const store = command.action === 'help' ? undefined : await chooseStore();
    // `sessions browse` is `chatkeep -r` with the browser's scope chosen: Enter opens the chat.
    const openChat = (all: boolean): Promise<number> => runChat({ resume: true }, { command: 'sessions browse', all }, home, host, async () => store);
    // Text is wrapped on a terminal; JSON and exports are data, kept whole wherever they go.
    const data = command.options.json === true || command.action === 'export';
    return runSessionsCommand(command, {
      home, store, cwd, env, host, stdout: data ? process.stdout : wrappedOutput(process.stdout), stderr: wrappedOutput(process.stderr), stdin: process.stdin, columns, terminal: process.stdout.isTTY === true, confirm, userHome: homedir(), openChat,
    });
  }
  return runChat(command.options, undefined, home, host, chooseStore);
}

type ReplFlags = Extract<ReturnType<typeof parseCommandLine>, { kind: 'repl' }>['options'];

/** The chat (with `how`: opened from `sessions browse`). */
async function runChat(flags: ReplFlags, how: ResumeHow | undefined, home: string, host: HostName, chooseStore: () => Promise<string | undefined>): Promise<number> {
  const env = process.env;
  const cwd = process.cwd();
  if (flags.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (flags.help) {
    process.stdout.write(forStream(process.stdout, replHelp(packageVersion(), process.stdout.isTTY === true)));
    return 0;
  }
  const store = flags['no-persist'] ? undefined : await chooseStore();
  // `-p` answers once as a script wants it, even at a terminal: the reply plain on stdout.
  const ask = flags.prompt === undefined ? undefined : withPipedInput(flags.prompt, process.stdin.isTTY === true ? '' : await readAll(process.stdin));
  const terminal = ask === undefined && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const [{ createScreen, colorLevelFor, colorDepth }, { startChat }] = await Promise.all([
    import('./terminal/screen.js'),
    import('./cli/start-chat.js'),
  ]);
  // Each stream's colour follows its own terminal: `2>file` gets no escape codes.
  const stderrTerminal = process.stderr.isTTY === true;
  const screen = createScreen({
    stdout: process.stdout,
    stderr: process.stderr,
    terminal,
    colorLevel: colorLevelFor(env, terminal, colorDepth(process.stdout)),
    stderrColorLevel: colorLevelFor(env, stderrTerminal, colorDepth(process.stderr)),
    stderrIsTerminal: stderrTerminal,
  });
  const ttys = terminalDescriptors();
  // The REPL handles a hang-up while it runs; before and after it, one must not kill the
  // process half-way (a closed terminal is noticed by its reads failing, and leaves as /quit).
  // Its terminal is closed as the process exits, gone or going (terminal/dead-terminal.ts).
  if (terminal) process.on('SIGHUP', () => closeTerminalsAtExit(ttys));
  // Once nothing is left to do (every write done), leave with process.exit, which skips Node's
  // teardown of what is about to end anyway (the heap page by page: 2–3 ms of a one-shot run's
  // leaving). On a terminal it also matters otherwise: that teardown closes the signal handles
  // first, which puts SIGHUP back to the default (fatal) action for the last milliseconds, and the
  // SIGHUP a terminal sends after closing would turn a run that has saved into one killed by a
  // signal (exit 129); this way the handler holds to the end.
  process.once('beforeExit', () => process.exit());
  try {
    return await startChat(flags, {
      home,
      store,
      cwd,
      env,
      host,
      stdin: process.stdin,
      stdout: process.stdout,
      screen,
      version: packageVersion(),
      signals: process,
      ...(ask !== undefined ? { ask } : {}),
    }, how);
  } finally {
    // Leaving on a signal while a pipe stays open (`tail -f log | chatkeep`) must not wait for its end.
    process.stdin.destroy();
    // A closed terminal: closed before Node's exit puts its modes back (terminal/dead-terminal.ts).
    if (terminal) closeDeadTerminals(ttys);
  }
}

/** `-p TEXT` with input piped in (`git diff | chatkeep -p "review this"`): the prompt, a blank line, then the input. */
function withPipedInput(prompt: string, piped: string): string {
  const input = piped.replace(/\s+$/, '');
  return input.trim() === '' ? prompt : `${prompt}\n\n${input}`;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}
