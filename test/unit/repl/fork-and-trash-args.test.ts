import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../src/cli/options.js';
import { parseForkArgs } from '../../../src/repl/fork-args.js';
import { parseAge } from '../../../src/cli/age.js';
import { UserError } from '../../../src/session/api/errors.js';

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    // What the CLI prints after `chatkeep: `, chatkeep being on PATH.
    if (err instanceof UserError) return `${err.message}${err.advice?.run ? ` ${err.advice.to} chatkeep ${err.advice.run.join(' ')}` : ''}`;
    throw err;
  }
  throw new Error('expected a UserError');
}

describe('/fork arguments', () => {
  it('takes --at N (or --at=N) anywhere and the rest as the title', () => {
    expect(parseForkArgs('')).toEqual({});
    expect(parseForkArgs('  side quest ')).toEqual({ title: 'side quest' });
    expect(parseForkArgs('--at 3 side quest')).toEqual({ at: 3, title: 'side quest' });
    expect(parseForkArgs('side --at=0')).toEqual({ at: 0, title: 'side' });
  });

  it('refuses an --at that is not a whole number of messages', () => {
    expect(failure(() => parseForkArgs('--at -1'))).toBe('Bad --at `-1`: give the number of messages the fork keeps (0 or more), such as --at 4.');
    expect(failure(() => parseForkArgs('--at 2.5'))).toContain('Bad --at `2.5`');
    expect(failure(() => parseForkArgs('--at'))).toBe('--at needs the number of messages the fork keeps.');
  });
});

describe('trash command lines', () => {
  it('parses each subcommand with its IDs and options', () => {
    expect(parseCommandLine(['sessions', 'rm', 'a', 'b'])).toEqual({ kind: 'sessions', action: 'rm', id: 'a', ids: ['a', 'b'], options: {} });
    expect(parseCommandLine(['sessions', 'prune', '--older-than', '30d', '--all', '--dry-run'])).toMatchObject({
      action: 'prune',
      options: { 'older-than': '30d', all: true, 'dry-run': true },
    });
    expect(parseCommandLine(['sessions', 'empty-trash', '-y'])).toMatchObject({ action: 'empty-trash', options: { yes: true } });
  });

  it('refuses options of other subcommands and wrong argument counts', () => {
    const see = '. See chatkeep sessions --help';
    expect(failure(() => parseCommandLine(['sessions', 'rm', 'a', '--yes']))).toBe(`--yes is an option of sessions empty-trash and doctor${see}`);
    expect(failure(() => parseCommandLine(['sessions', 'list', '--dry-run']))).toBe(`--dry-run is an option of sessions prune and import${see}`);
    expect(failure(() => parseCommandLine(['sessions', 'rm', 'a', '--older-than', '1d']))).toBe(`--older-than is an option of sessions prune and empty-trash${see}`);
    expect(failure(() => parseCommandLine(['sessions', 'restore', 'a', 'b']))).toBe(`unexpected argument b${see}`);
    expect(failure(() => parseCommandLine(['sessions', 'trash', 'a']))).toBe(`unexpected argument a${see}`);
    expect(failure(() => parseCommandLine(['sessions', 'empty-trash', '--all']))).toBe(`--all is an option of sessions browse, list, show, search, copy, prune and import${see}`);
  });

  it('reads ages in s, min, h, d and w', () => {
    expect(parseAge('30d')).toBe(30 * 86_400_000);
    expect(parseAge('2W')).toBe(14 * 86_400_000);
    expect(parseAge('90min')).toBe(90 * 60_000);
    expect(failure(() => parseAge('6m'))).toContain('Bad --older-than `6m`');
  });
});
