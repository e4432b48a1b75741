import { describe, expect, it } from 'vitest';
import { REPL_OPTIONS } from '../../../src/cli/chat-options.js';
import { parseCommandLine, replHelp } from '../../../src/cli/options.js';
import { UserError } from '../../../src/session/api/errors.js';
import { describeError } from '../../../src/terminal/report-error.js';

/** The one line the CLI prints for `err`, chatkeep being on PATH. */
function shownLine(err: UserError): string {
  return describeError(err, (args) => ['chatkeep', ...args].join(' ')).line;
}

function failure(argv: string[]): UserError {
  try {
    parseCommandLine(argv);
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error(`expected ${argv.join(' ')} to fail`);
}

describe('parseCommandLine', () => {
  it('parses the REPL flags, short and long', () => {
    const parsed = parseCommandLine(['-c', '--autosave', '30s', '--provider', 'echo', '--home', '/h']);
    expect(parsed).toEqual({ kind: 'repl', options: { continue: true, autosave: '30s', provider: 'echo', home: '/h' } });
  });

  it('rejects an unknown option in one line with exit code 2', () => {
    const err = failure(['--frobnicate']);
    expect(err.message).toBe('unknown option --frobnicate.');
    expect(shownLine(err)).toBe('chatkeep: unknown option --frobnicate. See chatkeep --help');
    expect(err.exitCode).toBe(2);
  });

  it('says when an option lacks its value', () => {
    expect(shownLine(failure(['--session-id']))).toBe('chatkeep: option --session-id needs a value. See chatkeep --help');
  });

  it('rejects stray arguments and conflicting resume flags', () => {
    expect(shownLine(failure(['hello']))).toBe('chatkeep: unexpected argument hello: to ask a one-word prompt, give it with -p. See chatkeep --help');
    expect(shownLine(failure(['-c', '--session-id', 'x']))).toBe('chatkeep: use only one of --session-id, --continue and --resume. See chatkeep --help');
  });

  it('parses the sessions subcommands', () => {
    // --json lists every row unless --limit is given; the text listing shows the newest 20.
    expect(parseCommandLine(['sessions', 'list', '--all', '--json'])).toEqual({ kind: 'sessions', action: 'list', ids: [], limit: 0, options: { all: true, json: true } });
    expect(parseCommandLine(['sessions', 'list', '--limit', '5'])).toEqual({ kind: 'sessions', action: 'list', ids: [], limit: 5, options: { limit: '5' } });
    expect(parseCommandLine(['sessions', 'show', 'session-1', '--json'])).toEqual({ kind: 'sessions', action: 'show', id: 'session-1', ids: ['session-1'], options: { json: true } });
    expect(parseCommandLine(['sessions', '--help']).kind === 'sessions' && parseCommandLine(['sessions', '--help'])).toMatchObject({ action: 'help' });
    expect(parseCommandLine(['sessions', 'list', '--branch', 'main', '--project', '../x'])).toMatchObject({ options: { branch: 'main', project: '../x' } });
    expect(shownLine(failure(['sessions', 'show', 'session-1', '--branch', 'main']))).toBe('chatkeep: --branch is an option of sessions list. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'list', '--all', '--project', '/p']))).toBe('chatkeep: use only one of --all and --project. See chatkeep sessions --help');
  });

  it('rejects a bad sessions subcommand', () => {
    expect(shownLine(failure(['sessions', 'delete']))).toBe('chatkeep: unknown command `sessions delete`. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'show']))).toBe('chatkeep: sessions show needs a session ID. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'list', '--bogus']))).toBe('chatkeep: unknown option --bogus. See chatkeep sessions --help');
  });
});

describe('replHelp', () => {
  it('parses sessions search: the words are one literal query', () => {
    expect(parseCommandLine(['sessions', 'search', 'lock', '(file)*', '--all', '--json'])).toEqual({
      kind: 'sessions', action: 'search', ids: [], query: 'lock (file)*', limit: 20, options: { all: true, json: true },
    });
    expect(parseCommandLine(['sessions', 'search', 'x', '--limit', '0'])).toMatchObject({ limit: 0 });
  });

  it('refuses an empty search, a bad --limit, and --limit elsewhere', () => {
    for (const argv of [['sessions', 'search'], ['sessions', 'search', '  ']]) {
      const err = failure(argv);
      expect(shownLine(err)).toBe('chatkeep: sessions search needs some text to look for. See chatkeep sessions --help');
      expect(err.exitCode).toBe(2);
    }
    expect(shownLine(failure(['sessions', 'search', 'x', '--limit', 'ten']))).toBe('chatkeep: --limit takes a whole number (0: all), not ten. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'list', '--limit', 'ten']))).toBe('chatkeep: --limit takes a whole number (0: all), not ten. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'show', 'x', '--limit', '3']))).toBe('chatkeep: --limit is an option of sessions list and search. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'search', 'x', '--branch', 'main']))).toBe('chatkeep: --branch is an option of sessions list. See chatkeep sessions --help');
  });

  it('documents every option from the table', () => {
    const help = replHelp('9.9.9');
    expect(help).toContain('chatkeep 9.9.9');
    for (const name of Object.keys(REPL_OPTIONS)) expect(help).toContain(`--${name}`);
    expect(help).toContain('chatkeep sessions show ID [--archived] [--json]');
  });
});

describe('parseCommandLine: sessions export and import', () => {
  it('parses export and import with their options', () => {
    expect(parseCommandLine(['sessions', 'export', 'session-1', '--format', 'md', '-o', 'x.md'])).toEqual({
      kind: 'sessions', action: 'export', id: 'session-1', ids: ['session-1'], options: { format: 'md', output: 'x.md' },
    });
    expect(parseCommandLine(['sessions', 'import', '-', '--no-redact', '--json'])).toEqual({
      kind: 'sessions', action: 'import', file: '-', ids: [], options: { 'no-redact': true, json: true },
    });
    expect(parseCommandLine(['sessions', 'export', '--help'])).toEqual({ kind: 'sessions', action: 'help', topic: 'export', ids: [], options: { help: true } });
  });

  it('refuses an option of another subcommand', () => {
    expect(shownLine(failure(['sessions', 'import', 'f.json', '-o', 'x']))).toBe('chatkeep: --output is an option of sessions export. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'list', '--format', 'md']))).toBe('chatkeep: --format is an option of sessions export. See chatkeep sessions --help');
    expect(shownLine(failure(['sessions', 'export', 'session-1', '--json']))).toBe('chatkeep: --json is an option of sessions list, show, tree, diff, fork, search, import, copy, rm, trash, restore, prune, empty-trash, doctor, share and unshare. See chatkeep sessions --help');
  });

  it('takes --home before the subcommand, as printed commands put it', () => {
    expect(parseCommandLine(['--home', '/h', 'sessions', 'list', '--all'])).toEqual({ kind: 'sessions', action: 'list', ids: [], limit: 20, options: { all: true, home: '/h' } });
    expect(parseCommandLine(['--home=/h', 'sessions', 'show', 'x'])).toMatchObject({ kind: 'sessions', action: 'show', id: 'x', options: { home: '/h' } });
  });

  it('says where a chat flag belongs when it comes with a sessions subcommand, before or after it', () => {
    const advice = (flag: string): string =>
      `chatkeep: ${flag} is an option of the chat, not of the sessions subcommands: leave it out here, or give it to a chat (without \`sessions\`). See chatkeep sessions --help`;
    expect(shownLine(failure(['--provider', 'echo', 'sessions', 'list']))).toBe(advice('--provider'));
    expect(shownLine(failure(['--home', '/h', '--model=x', 'sessions', 'show', 'a']))).toBe(advice('--model'));
    expect(shownLine(failure(['-c', 'sessions', 'list']))).toBe(advice('--continue'));
    expect(shownLine(failure(['sessions', 'list', '--provider', 'echo']))).toBe(advice('--provider'));
    expect(failure(['--provider', 'echo', 'sessions', 'list']).exitCode).toBe(2);
    // A flag both take means the same after the subcommand.
    expect(parseCommandLine(['--no-redact', '--store', 'file', 'sessions', 'import', 'f.json'])).toMatchObject({ action: 'import', options: { 'no-redact': true, store: 'file' } });
  });
});
