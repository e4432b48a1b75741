/**
 * What the framework adapters refuse, here with the library's other errors so that
 * `import 'chatkeep'` exports them without loading an adapter.
 */
import { UserError, printable } from './errors.js';

/** An item a framework handed over that JSON cannot hold (a function, a class instance, a cycle). */
export class UnstorableItemError extends UserError {
  constructor(format: string, what: string) {
    super(`Cannot store this ${format} item without losing part of it (${what}): give its fields plain JSON values.`, 'E_UNSTORABLE_ITEM');
  }
}

/**
 * An ID given where an exact ID is meant (`openOrCreate`, and the framework adapters' `{ id }`)
 * that is only the start of stored sessions' IDs. Taken as a new session's ID it would make a
 * second session named like the one meant; taken as a prefix it would make one key name
 * another session once a longer ID appears. Refused either way.
 */
export class PrefixNotIdError extends UserError {
  constructor(
    readonly id: string,
    readonly matches: readonly string[],
  ) {
    super(
      `\`${printable(id)}\` is not a session's ID but the start of ${matches.length === 1 ? `\`${matches[0]}\`` : `${matches.length} sessions' IDs (${matches.slice(0, 3).join(', ')}${matches.length > 3 ? ', …' : ''})`}: an ID here is exact, give the whole one.`,
      'E_PREFIX_NOT_ID',
      2,
      { to: 'List sessions with:', run: ['sessions', 'list', '--all'], slash: { name: 'sessions', args: ['--all'] }, call: 'sessions.list({ all: true })' },
    );
  }
}
