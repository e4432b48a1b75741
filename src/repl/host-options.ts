/**
 * What the controller and the adapters take, described once and checked where a host hands it
 * in: a wrong or unknown option (a misspelt `resumeId` for `resume`) is a `BadOptionError`
 * naming the call and the option, never a new session opened as if nothing had been asked, nor
 * a `TypeError` when the session is left.
 */
import { anyText, callback, checkOptions, flag, shape, text, wholeNumber, type Check } from '../session/api/check-options.js';
import { isObject } from '../util/is-object.js';
import type { HostName } from './host.js';
import { PROVIDER } from '../session/api/library-options.js';

const rule = (takes: string, ok: (value: unknown) => boolean): Check => ({ takes, ok });
const hasMethods =
  (...names: string[]) =>
  (v: unknown): boolean =>
    typeof v === 'object' && v !== null && names.every((n) => typeof (v as Record<string, unknown>)[n] === 'function');

const HOST_FIELDS = shape({ program: text, resumeFlag: anyText, command: callback, subcommands: flag }, ['program']);
/** The host's program: its name as a string, or a `HostName`. */
export const HOST = rule(`the program's name (a non-empty string) or ${HOST_FIELDS.takes}`, (v) => text.ok(v) || HOST_FIELDS.ok(v));

const OPEN = {
  resume: text,
  continue: flag,
  newWhenNone: flag,
  fork: shape({ from: text, at: wholeNumber(0), title: anyText }, ['from']),
  title: anyText,
};
const AUTOSAVE = rule("a schedule ('5m', a cron expression, 'off'), a parsed schedule or a timer", (v) => typeof v === 'string' || isObject(v));

/** `SessionController.open` and its constructor (which is given what `open` was: the open options pass). */
export const CONTROLLER_OPTIONS = {
  sessions: rule('a session manager (from openSessions)', hasMethods('resume', 'create', 'fork', 'latest')),
  host: HOST,
  autosave: AUTOSAVE,
  persistent: flag,
};

/** `attach` and `attachReadline` (this one also takes `output`, where it writes). */
export const ADAPTER_OPTIONS = {
  ...OPEN,
  host: HOST,
  sessions: CONTROLLER_OPTIONS.sessions,
  home: text,
  cwd: text,
  open: rule('an object of openSessions options', isObject),
  provider: PROVIDER,
  autosave: AUTOSAVE,
  commands: shape({ drop: rule('a list', Array.isArray), rename: rule('an object', isObject), add: rule('a list', Array.isArray) }),
  signals: rule('an event emitter (process)', hasMethods('on', 'off')),
  writeFile: callback,
  writeOutsideCwd: flag,
  version: text,
};
export const READLINE_OPTIONS = { ...ADAPTER_OPTIONS, output: rule('a writable stream', hasMethods('write')) };

/** Checks a controller's options: `open` also allows the open options (the constructor is given what `open` was). */
export function checkControllerOptions<T>(where: string, options: T, open: boolean): T {
  return checkOptions(where, options, open ? { ...CONTROLLER_OPTIONS, ...OPEN } : CONTROLLER_OPTIONS, ['sessions', 'host']);
}

/** `host` as a `HostName`: a string is the program's name. */
export function hostNamed(host: HostName | string): HostName {
  return typeof host === 'string' ? { program: host } : host;
}

/** The host's name from options not checked yet (to word a refusal of them): undefined when it is not one. */
export function hostOf(options: unknown): HostName | undefined {
  const host = isObject(options) ? options['host'] : undefined;
  return HOST.ok(host) ? hostNamed(host as HostName | string) : undefined;
}
