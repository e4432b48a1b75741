/**
 * The library's options, checked where a program hands them in (docs/design.md §17): a wrong one is
 * a `BadOptionError` naming the call, the option, what it takes and what it got, never a
 * `TypeError` from deep inside (the types promise that anything not a `ChatkeepError` is a bug).
 * Each call describes its options once, as data; an option it does not know is refused too, so a
 * misspelt `homeDir` is not silently ignored.
 */
import { BadOptionError, printable } from './errors.js';
import { isValidId } from './ids.js';
import { isObject } from '../../util/is-object.js';

/** One option's rule: what it takes, in words, and whether a value is that. */
export interface Check {
  takes: string;
  ok(value: unknown): boolean;
}

const check = (takes: string, ok: (value: unknown) => boolean): Check => ({ takes, ok });

export const text = check('a non-empty string', (v) => typeof v === 'string' && v.trim() !== '');
export const anyText = check('a string', (v) => typeof v === 'string');
export const flag = check('true or false', (v) => typeof v === 'boolean');
export const callback = check('a function', (v) => typeof v === 'function');
export const date = check('a valid Date', (v) => v instanceof Date && !Number.isNaN(v.getTime()));
export const sessionId = check("a session ID (1–128 letters, digits, '.', '_' or '-', starting with a letter or digit)", (v) => typeof v === 'string' && isValidId(v));
export const nullableText = check('a string or null', (v) => v === null || typeof v === 'string');
export const stringRecord = check('an object of string values', (v) => isOptionBag(v) && Object.values(v).every((x) => x === undefined || typeof x === 'string'));

/** A whole number, at least `min`. */
export function wholeNumber(min: number): Check {
  return check(`a whole number ≥ ${min}`, (v) => typeof v === 'number' && Number.isInteger(v) && v >= min);
}

/** One of these strings. */
export function oneOf(values: readonly string[]): Check {
  return check(values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1'), (v) => typeof v === 'string' && values.includes(v));
}

/** An object whose own fields follow `fields` (`required`: those that must be there). */
export function shape(fields: Record<string, Check>, required: readonly string[] = []): Check {
  const names = Object.keys(fields).join(', ');
  return check(`an object of ${names}${required.length ? ` (${required.join(', ')} required)` : ''}`, (v) => {
    if (!isOptionBag(v)) return false;
    if (Object.keys(v).some((k) => !(k in fields))) return false;
    return Object.entries(fields).every(([k, c]) => (v[k] === undefined ? !required.includes(k) : c.ok(v[k])));
  });
}

/** An object of options or fields: any object but an array or a Date. */
function isOptionBag(v: unknown): v is Record<string, unknown> {
  return isObject(v) && !(v instanceof Date);
}

/** A value as a message shows it: its kind, and a short string or number as it is. */
function described(v: unknown): string {
  if (v === undefined || v === null) return String(v);
  if (typeof v === 'string') return `"${printable(v, 40)}"`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'an invalid Date';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function bad(where: string, name: string | undefined, rule: Check, value: unknown): BadOptionError {
  return new BadOptionError(where, name, `${name === undefined ? 'takes' : `\`${name}\` takes`} ${rule.takes}, not ${described(value)}.`);
}

/**
 * Checks `options` of the call `where` (`openSessions`, `create`) against `rules`; `required`
 * names the options that must be given. Undefined means "not given" for the others; without
 * `required`, the whole argument may be left out.
 */
export function checkOptions<T>(where: string, options: T, rules: Record<string, Check>, required: readonly string[] = []): T {
  if (options === undefined && required.length === 0) return options;
  const names = Object.keys(rules).join(', ');
  if (!isOptionBag(options)) throw bad(where, undefined, check(`an object of options (${names})`, () => false), options);
  for (const name of Object.keys(options)) {
    if (!(name in rules)) throw new BadOptionError(where, name, `there is no option \`${printable(name, 40)}\`; the options are ${names}.`);
  }
  for (const [name, rule] of Object.entries(rules)) {
    const value = options[name];
    if (value === undefined ? required.includes(name) : !rule.ok(value)) throw bad(where, name, rule, value);
  }
  return options;
}

/** Checks one argument that is not an options object (`resume(id)`, `search(query)`). */
export function checkArgument<T>(where: string, name: string, value: T, rule: Check): T {
  if (!rule.ok(value)) throw bad(where, name, rule, value);
  return value;
}
