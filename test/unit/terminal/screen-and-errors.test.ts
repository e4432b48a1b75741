import { describe, expect, it } from 'vitest';
import { describeError, describeReplError } from '../../../src/terminal/report-error.js';
import { PassThrough } from 'node:stream';
import { colorLevelFor, createScreen } from '../../../src/terminal/screen.js';
import { SessionInUseError, UnknownSessionError } from '../../../src/session/errors.js';

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
});

describe('describeError', () => {
  it('shows a user error as one line with its exit code', () => {
    expect(describeError(new UnknownSessionError('abc'))).toEqual({
      text: 'chatkeep: No session `abc`. List sessions with: chatkeep sessions list --all\n',
      line: 'chatkeep: No session `abc`. List sessions with: chatkeep sessions list --all',
      exitCode: 2,
    });
    expect(describeError(new SessionInUseError('s-1', { pid: 7, host: 'h', startedAt: 't' })).exitCode).toBe(3);
  });

  it('shows anything else as a bug with where it came from, exit 1', () => {
    const report = describeError(new TypeError('x is undefined'));
    expect(report.exitCode).toBe(1);
    expect(report.text).toMatch(/^chatkeep: unexpected failure: x is undefined\n\s+at /);
    expect(report.text).toContain('This is a bug; please report it');
  });

  it('keeps a bug to one line inside the REPL', () => {
    const line = describeReplError(new TypeError('boom'));
    expect(line).toMatch(/^chatkeep: unexpected failure: boom \(at .*\)\. The session is intact; please report this\.$/);
    expect(describeReplError(new UnknownSessionError('x'))).toBe('chatkeep: No session `x`. List sessions with: chatkeep sessions list --all');
  });
});
