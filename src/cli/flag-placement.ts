/**
 * Flags given where they do not belong: `chatkeep --provider echo sessions list` put a chat flag
 * before a subcommand. A flag both take (--home, --store, --no-redact, --help) is moved after the
 * subcommand, where it means the same; a chat-only flag is refused in one line saying where it goes.
 */
import { REPL_OPTIONS } from './chat-options.js';
import type { OptionSpec } from './option-spec.js';
import { SESSIONS_OPTION_TABLE } from './sessions-option-table.js';

/** What the words before `sessions` were: the flags to move after it, or the chat flag that does not belong. */
export type Placement = { kind: 'moved'; argv: string[] } | { kind: 'misplaced'; flag: string };

/** How `argv` reads once the flags before `sessions` are put after it; undefined when `sessions` does not follow flags. */
export function placeLeadingFlags(argv: readonly string[]): Placement | undefined {
  let lead = 0;
  let misplaced: string | undefined;
  while (lead < argv.length && argv[lead]!.startsWith('-')) {
    const word = argv[lead]!;
    const found = optionOf(word, REPL_OPTIONS);
    if (!found) return undefined;
    const [name, spec] = found;
    if (!(name in SESSIONS_OPTION_TABLE)) misplaced ??= `--${name}`;
    lead += spec.type === 'string' && !word.includes('=') ? 2 : 1;
  }
  if (lead === 0 || (argv[lead] !== 'sessions' && argv[lead] !== 'db')) return undefined;
  if (misplaced) return { kind: 'misplaced', flag: misplaced };
  return { kind: 'moved', argv: [...argv.slice(lead), ...argv.slice(0, lead)] };
}

/** The chat option `word` names (`--model`, `--model=x`, `-c`), if it is one and not a sessions option too. */
export function chatOnlyOption(word: string): [string, OptionSpec] | undefined {
  const found = optionOf(word, REPL_OPTIONS);
  return found && !(found[0] in SESSIONS_OPTION_TABLE) ? found : undefined;
}

/** One line: where a chat flag belongs. */
export function chatFlagAdvice(flag: string): string {
  return `${flag} is an option of the chat, not of the sessions subcommands: leave it out here, or give it to a chat (without \`sessions\`)`;
}

function optionOf(word: string, specs: Record<string, OptionSpec>): [string, OptionSpec] | undefined {
  if (word.startsWith('--')) {
    const name = word.slice(2).split('=')[0]!;
    const spec = specs[name];
    return spec ? [name, spec] : undefined;
  }
  const short = word.slice(1);
  return Object.entries(specs).find(([, spec]) => spec.short === short);
}
