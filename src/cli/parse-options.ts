/** `parseArgs` over an option table, its errors turned into the one line a user sees (exit 2). */
import { parseArgs } from 'node:util';
import { chatFlagAdvice, chatOnlyOption } from './flag-placement.js';
import { usage, type OptionSpec } from './option-spec.js';

export interface ParseWith {
  positionals: boolean;
  /** The help the error lines point to. */
  help: readonly string[];
  /** A `sessions` command line: a chat flag in it is told where it belongs. */
  sessions?: boolean;
}

export function parseOptions(args: string[], specs: Record<string, OptionSpec>, how: ParseWith): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(specs)) options[name] = spec.short ? { type: spec.type, short: spec.short } : { type: spec.type };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: how.positionals });
    parsed = { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (err) {
    // A chat flag after `sessions …`: say where it belongs rather than that it is unknown.
    const chatFlag = how.sessions ? args.map(chatOnlyOption).find((found) => found !== undefined) : undefined;
    if (chatFlag && (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw usage(chatFlagAdvice(`--${chatFlag[0]}`), how.help);
    throw usage(describeParseError(err, args), how.help);
  }
  // An empty value would quietly mean "here" (the current directory) or nothing at all.
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' && value.trim() === '') throw usage(`option --${name} needs a value, not an empty string`, how.help);
  }
  return parsed;
}

/** Turns node:util's parse errors (long, with advice about `--`) into a short phrase. */
function describeParseError(err: unknown, args: readonly string[]): string {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  // `-c, --continue` names both forms: the long one is the one to show.
  const option = quoted.split(' ').filter((word) => word.startsWith('-')).pop()?.replace(/,$/, '') ?? quoted;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${quoted.split(' ')[0]}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${quoted}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('argument missing')) return `option ${option} needs a value`;
    if (message.includes('ambiguous')) {
      // The word after the option begins with `-`: parseArgs will not take it as the value.
      const next = args[args.indexOf(option) + 1] ?? '';
      return `option ${option} needs a value, and ${next} looks like an option (to pass it as the value, write ${option}=${next})`;
    }
    return `option ${option} does not take a value`;
  }
  return message.split('.')[0] ?? message;
}
