import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lineWrapper, wrapText } from '../../../src/terminal/wrap.js';

/** The words of `text`, whitespace-separated. */
const words = (text: string): string[] => stripVTControlCharacters(text).split(/\s+/).filter(Boolean);

describe('wrapText', () => {
  it('breaks at word boundaries, never over the width, and keeps every word whole', () => {
    const text = 'chatkeep 0.1.0 · session session-20261128-124052 · echo (offline) · autosave every 5 min';
    const out = wrapText(text, 80);
    expect(out).toBe('chatkeep 0.1.0 · session session-20261128-124052 · echo (offline) · autosave\nevery 5 min');
    expect(words(out)).toEqual(words(text));
  });

  it('gives text back as it is without a width (a pipe)', () => {
    const text = `${'word '.repeat(40)}\n  indented  help row`;
    expect(wrapText(text, undefined)).toBe(text);
  });

  it('indents continuation rows under a help table\'s text column, a bullet\'s text, or the line\'s indentation', () => {
    expect(wrapText('  /save [title]   write a snapshot now, optionally setting the title', 50)).toBe(
      '  /save [title]   write a snapshot now, optionally\n                  setting the title',
    );
    expect(wrapText('  • one item that goes on past the end of the row', 30)).toBe('  • one item that goes on past\n    the end of the row');
    expect(wrapText('1. first step done well', 12)).toBe('1. first\n   step done\n   well');
  });

  it('breaks a word longer than the row where the row ends', () => {
    expect(wrapText('a abcdefghijklmnop', 8)).toBe('a\nabcdefgh\nijklmnop');
  });

  it('takes no room for ANSI escapes and never splits one', () => {
    const dim = '\x1b[2mdim text that wraps here\x1b[22m';
    const out = wrapText(dim, 14);
    expect(stripVTControlCharacters(out)).toBe('dim text that\nwraps here');
    expect(out.startsWith('\x1b[2m') && out.endsWith('\x1b[22m')).toBe(true);
  });

  it('counts wide characters as two columns', () => {
    expect(wrapText('漢字漢字 漢字', 9)).toBe('漢字漢字\n漢字');
  });
});

describe('lineWrapper (a reply as it streams)', () => {
  const reply = 'Echo: a reply that is long enough to wrap a few times over, with words of every length (read 1 message)';

  it('writes the same rows as the whole text, whatever the pieces, and loses nothing', () => {
    for (const size of [1, 3, 7, 16]) {
      const wrapper = lineWrapper(() => 24);
      let out = '';
      for (let i = 0; i < reply.length; i += size) out += wrapper.push(reply.slice(i, i + size));
      out += wrapper.end();
      expect(out).toBe(wrapText(reply, 24));
      expect(out.split('\n').every((row) => row.length <= 24)).toBe(true);
      expect(words(out)).toEqual(words(reply));
    }
  });

  it('holds only a word that may still grow, and counts the rows it wrote', () => {
    const wrapper = lineWrapper(() => 10);
    expect(wrapper.push('one two th')).toBe('one two');
    // Past the row's end, the word begins the next row and is written as it comes.
    expect(wrapper.push('r')).toBe('\nthr');
    expect(wrapper.push('ee four')).toBe('ee');
    expect(wrapper.rows).toBe(2);
    expect(wrapper.end()).toBe(' four');
  });

  it('re-measures the width at each piece (a resized terminal)', () => {
    let width = 40;
    const wrapper = lineWrapper(() => width);
    let out = wrapper.push('alpha beta ');
    width = 12;
    out += wrapper.push('gamma delta ') + wrapper.end();
    expect(out).toBe('alpha beta\ngamma delta');
  });
});

describe('wrapText with keepTails (lines that end in a printed command)', () => {
  it('keeps what follows the last ": " on one row when it fits on one', () => {
    const line = 'Saved session-20261128-124052 (3 messages). Resume with: chatkeep --session-id session-20261128-124052';
    const out = wrapText(line, 80, { keepTails: true });
    expect(out).toBe('Saved session-20261128-124052 (3 messages). Resume with:\nchatkeep --session-id session-20261128-124052');
    expect(wrapText(line, 80)).toBe('Saved session-20261128-124052 (3 messages). Resume with: chatkeep --session-id\nsession-20261128-124052');
  });

  it('breaks a tail longer than a row between its words, and leaves indented lines to their columns', () => {
    const long = `Resume with: node ${'/very/long/path'.repeat(4)}/bin/chatkeep.js --session-id session-20261128-124052`;
    expect(wrapText(long, 60, { keepTails: true })).toBe(wrapText(long, 60));
    const row = '  /export [json|md|html] [file]  write this session to a file: json (what `sessions import` reads), md or html';
    expect(wrapText(row, 80, { keepTails: true })).toBe(wrapText(row, 80));
  });
});
