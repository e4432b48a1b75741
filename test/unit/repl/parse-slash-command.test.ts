import { describe, expect, it } from 'vitest';
import { builtinCommands } from '../../../src/repl/commands/index.js';
import { editDistance, parseSlashCommand, suggestCommand } from '../../../src/repl/parse-slash-command.js';

describe('parseSlashCommand', () => {
  it('treats blank lines as empty', () => {
    expect(parseSlashCommand('   ', builtinCommands)).toEqual({ kind: 'empty' });
  });

  it('sends ordinary text to the assistant unchanged', () => {
    expect(parseSlashCommand('hello there ', builtinCommands)).toEqual({ kind: 'chat', text: 'hello there ' });
  });

  it('finds a command with its arguments trimmed', () => {
    const parsed = parseSlashCommand('/save  my title ', builtinCommands);
    expect(parsed.kind).toBe('command');
    if (parsed.kind !== 'command') return;
    expect(parsed.command.name).toBe('save');
    expect(parsed.args).toBe('my title');
  });

  it('finds commands by alias and ignores case', () => {
    const exit = parseSlashCommand('/EXIT', builtinCommands);
    expect(exit.kind === 'command' && exit.command.name).toBe('quit');
  });

  it('reports an unknown command with a suggestion for a near miss', () => {
    expect(parseSlashCommand('/sav', builtinCommands)).toEqual({ kind: 'unknown', name: 'sav', suggestion: 'save' });
    expect(parseSlashCommand('/hlep', builtinCommands)).toEqual({ kind: 'unknown', name: 'hlep', suggestion: 'help' });
  });

  it('reports an unknown command without a suggestion when nothing is close', () => {
    expect(parseSlashCommand('/frobnicate', builtinCommands)).toEqual({ kind: 'unknown', name: 'frobnicate' });
  });

  it('sends //text to the assistant as /text', () => {
    expect(parseSlashCommand('//etc/hosts is odd', builtinCommands)).toEqual({ kind: 'chat', text: '/etc/hosts is odd' });
  });

  it('treats a multi-line paste that starts with / as chat', () => {
    expect(parseSlashCommand('/usr/bin\nis a directory', builtinCommands).kind).toBe('chat');
  });
});

describe('suggestCommand and editDistance', () => {
  it('counts a transposition as one edit', () => {
    expect(editDistance('hlep', 'help')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests the canonical name when an alias is close', () => {
    expect(suggestCommand('exot', builtinCommands)).toBe('quit');
  });

  it('does not suggest a short word two edits away from an unrelated command', () => {
    expect(suggestCommand('nope', builtinCommands)).toBeUndefined();
  });

  it('does not suggest for a one-letter unknown far from everything', () => {
    expect(suggestCommand('z', builtinCommands)).toBeUndefined();
  });

  it('answers at once for a pasted megabyte after a slash (no table the size of the paste)', () => {
    // Before: a 1 MB name built a million-row table per command (a 50 MB paste ran out of memory).
    const heap = process.memoryUsage().heapUsed;
    expect(suggestCommand('T/rPJJQt5'.repeat(120_000), builtinCommands)).toBeUndefined();
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 * 1024 * 1024);
    expect(suggestCommand('hlep', builtinCommands)).toBe('help');
  });
});
