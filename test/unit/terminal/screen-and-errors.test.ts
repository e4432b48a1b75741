import { describe, expect, it } from 'vitest';
import { describeError } from '../../../src/terminal/report-error.js';
import { errorLine } from '../../../src/repl/host-words.js';
import { builtinCommands } from '../../../src/repl/commands/index.js';
import { commandSet } from '../../../src/repl/command-set.js';
import { MissingApiKeyError, TrashedSessionError } from '../../../src/session/api/errors.js';
import { PassThrough } from 'node:stream';
import { colorLevelFor, createScreen } from '../../../src/terminal/screen.js';
import { SessionInUseError, UnknownSessionError } from '../../../src/session/api/errors.js';

describe('colorLevelFor', () => {
  it('turns colour off for NO_COLOR, even over FORCE_COLOR', () => {
    expect(colorLevelFor({ NO_COLOR: '1', FORCE_COLOR: '3' }, true, 3)).toBe(0);
  });

  it('honours FORCE_COLOR with or without a terminal', () => {
    expect(colorLevelFor({ FORCE_COLOR: '1' }, false, 0)).toBe(1);
    expect(colorLevelFor({ FORCE_COLOR: '3' }, false, 0)).toBe(3);
    expect(colorLevelFor({ FORCE_COLOR: '0' }, true, 3)).toBe(0);
  });

  it('colours a terminal at its depth, a terminal without colours not at all, and never a pipe', () => {
    expect(colorLevelFor({}, true, 2)).toBe(2);
    expect(colorLevelFor({}, true, 1)).toBe(1);
    expect(colorLevelFor({}, true, 0)).toBe(0);
    expect(colorLevelFor({}, false, 3)).toBe(0);
    expect(colorLevelFor({ NO_COLOR: '' }, true, 2)).toBe(2);
  });
});

describe('createScreen', () => {
  const capture = (): { stream: PassThrough; text: () => string } => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (d: Buffer) => (text += d.toString()));
    return { stream, text: () => text };
  };

  it('colours each stream by its own terminal: status lines on a terminal in colour, in a file (2>f) plain', () => {
    const [out, err] = [capture(), capture()];
    const screen = createScreen({ stdout: out.stream, stderr: err.stream, terminal: true, colorLevel: 1, stderrColorLevel: 0, stderrIsTerminal: false });
    screen.status('Resumed.');
    screen.hangUp();
    screen.status('Saved s (1 message).');
    screen.warn('careful');
    expect(out.text()).toBe('\x1b[2mResumed.\x1b[22m\n');
    expect(err.text()).toBe('Saved s (1 message).\ncareful\n');
  });

  it('colours stderr when stdout is piped but stderr is a terminal', () => {
    const [out, err] = [capture(), capture()];
    const screen = createScreen({ stdout: out.stream, stderr: err.stream, terminal: false, colorLevel: 0, stderrColorLevel: 1 });
    screen.info('reply');
    screen.error('bad');
    expect(out.text()).toBe('reply\n');
    expect(err.text()).toBe('\x1b[31mbad\x1b[39m\n');
  });

  it('puts the [interrupted] marker after a laid-out reply only where it fits, else on the next row whole', () => {
    const out = capture();
    const stream = Object.assign(out.stream, { columns: 40 });
    const screen = createScreen({ stdout: stream, stderr: capture().stream, terminal: true, colorLevel: 0 });
    // Rendered Markdown ends its last row at column 30, then 26: 30 + 14 > 40; 26 + 14 fits.
    screen.endReply(' [interrupted]', 30);
    screen.endReply(' [interrupted]', 26);
    expect(out.text()).toBe('\n[interrupted]\n [interrupted]\n');
  });
});

/** The CLI's command writer as chatkeep on PATH writes it. */
const chatkeep = (args: readonly string[]): string => ['chatkeep', ...args].join(' ');

describe('describeError', () => {
  it('shows a user error as one line with its exit code, its advice as a command of the CLI', () => {
    expect(describeError(new UnknownSessionError('abc'), chatkeep)).toEqual({
      text: 'chatkeep: No session `abc`. List sessions with: chatkeep sessions list --all\n',
      line: 'chatkeep: No session `abc`. List sessions with: chatkeep sessions list --all',
      exitCode: 2,
    });
    expect(describeError(new SessionInUseError('s-1', { pid: 7, host: 'h', startedAt: 't' }), chatkeep)).toEqual({
      text: 'chatkeep: Session s-1 is in use by process 7 on h (since t): quit it there first. Or continue in a copy of it: chatkeep --fork s-1\n',
      line: 'chatkeep: Session s-1 is in use by process 7 on h (since t): quit it there first. Or continue in a copy of it: chatkeep --fork s-1',
      exitCode: 3,
    });
    // Written as the CLI was started (npm start here): the error itself names no program.
    const err = new TrashedSessionError('s-2');
    expect(describeError(err, (args) => ['npm start --', ...args].join(' ')).line).toBe('chatkeep: Session s-2 is in the trash. Restore it with: npm start -- sessions restore s-2');
    expect(err.message).toBe('Session s-2 is in the trash.');
  });

  it('shows anything else as a bug with where it came from, exit 1', () => {
    const report = describeError(new TypeError('x is undefined'), chatkeep);
    expect(report.exitCode).toBe(1);
    expect(report.text).toMatch(/^chatkeep: unexpected failure: x is undefined\n\s+at /);
    expect(report.text).toContain('This is a bug; please report it');
  });

});

describe('errorLine (a REPL host)', () => {
  const adapter = { host: { program: 'node my-repl.mjs', resumeFlag: '' }, prefix: '.', commands: builtinCommands };

  it("keeps a bug to one line, with no program's name before it", () => {
    expect(errorLine(new TypeError('boom'), adapter)).toMatch(/^unexpected failure: boom \(at .*\)\. The session is intact; please report this\.$/);
  });

  it("words the advice as the host's own command, renamed or prefixed as it types them", () => {
    expect(errorLine(new UnknownSessionError('x'), adapter)).toBe('No session `x`. List sessions with: .sessions --all');
    expect(errorLine(new UnknownSessionError('x'), { ...adapter, prefix: '/', commands: commandSet(builtinCommands, { rename: { sessions: 'list' } }) })).toBe('No session `x`. List sessions with: /list --all');
    // chatkeep's chat: its slash command where it has one, else its own subcommand.
    const chat = { host: { program: 'chatkeep', subcommands: true }, commands: builtinCommands };
    expect(errorLine(new UnknownSessionError('x'), chat)).toBe('No session `x`. List sessions with: /sessions --all');
    expect(errorLine(new TrashedSessionError('s-2'), chat)).toBe('Session s-2 is in the trash. Restore it with: chatkeep sessions restore s-2');
  });

  it("never prints a subcommand the host's program does not have: the message stands alone", () => {
    expect(errorLine(new TrashedSessionError('s-2'), adapter)).toBe('Session s-2 is in the trash.');
    expect(errorLine(new SessionInUseError('s-1', undefined), adapter)).toBe('Session s-1 is in use by another process: quit it there first.');
    expect(errorLine(new UnknownSessionError('x'), { ...adapter, commands: commandSet(builtinCommands, { drop: ['sessions'] }) })).toBe('No session `x`.');
    expect(errorLine(new MissingApiKeyError('OPENAI_API_KEY'), { host: { program: 'myagent' } })).toBe('OPENAI_API_KEY is not set: export it.');
  });
});
