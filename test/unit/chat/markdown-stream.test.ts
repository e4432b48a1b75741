import { stripVTControlCharacters } from 'node:util';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { loadMarkdown } from '../../../src/cli/chat/markdown.js';
import { createMarkdownStream } from '../../../src/cli/chat/markdown-stream.js';

/** Streams `pieces`; returns what was written after each piece, and the whole output. */
async function stream(pieces: string[]): Promise<{ after: string[]; text: string }> {
  const render = await loadMarkdown(new Chalk({ level: 0 }), 80);
  let text = '';
  // Tables keep cli-table3's own border colour: compare the text.
  const md = createMarkdownStream(render, (t) => (text += stripVTControlCharacters(t)));
  const after: string[] = [];
  for (const piece of pieces) {
    md.push(piece);
    after.push(text);
  }
  md.end();
  return { after, text };
}

describe('createMarkdownStream', () => {
  it('writes a line once it is complete, never rewrites it, and separates blocks by one blank line', async () => {
    const { after, text } = await stream(['# Ti', 'tle\nA para', 'graph **strong**.\n', '\n- one\n', '- two']);
    expect(after).toEqual(['', '# Title', '# Title\n\nA paragraph strong.', '# Title\n\nA paragraph strong.\n\n• one', '# Title\n\nA paragraph strong.\n\n• one']);
    expect(text).toBe('# Title\n\nA paragraph strong.\n\n• one\n• two');
  });

  it('streams a fenced block line by line under its language, and keeps blank lines inside it', async () => {
    const { after, text } = await stream(['```py\n', 'a = 1\n', '\n', 'b = 2\n', '```\n', 'after\n']);
    expect(after[1]).toBe('  py\n    a = 1');
    expect(text).toBe('  py\n    a = 1\n\n    b = 2\n\nafter');
  });

  it('holds a table until it ends, since its columns depend on every row', async () => {
    const { after, text } = await stream(['| a | b |\n', '|---|---|\n', '| 1 | 22 |\n', '\n', 'done']);
    expect(after.slice(0, 3)).toEqual(['', '', '']);
    expect(after[3]).toContain('│ 1 │ 22 │');
    expect(text).toMatch(/22 │\n└.*┘\n\ndone$/);
  });

  it('writes nothing for an empty reply and ends the last line without a newline', async () => {
    expect((await stream([])).text).toBe('');
    expect((await stream(['plain text'])).text).toBe('plain text');
  });
});

describe('the line in progress (a terminal of known width)', () => {
  it('is shown plain as it arrives, then replaced by its rendered form over exactly the rows it took', async () => {
    const render = await loadMarkdown(new Chalk({ level: 0 }), 80);
    const writes: string[] = [];
    const md = createMarkdownStream(render, (t) => writes.push(t), () => 10);
    md.push('**bold** and ');
    md.push('more text\n');
    md.push('next');
    expect(md.end()).toBe(false);
    expect(writes).toEqual([
      // Broken at a word boundary to the 10 columns, as the words arrive.
      '**bold**\nand',
      // The plain line took 2 rows: up 1, clear, rendered (wrapped the same way).
      '\r\x1b[1A\x1b[Jbold and\nmore text',
      // A word that may still grow is held: the row is begun, the word waits.
      '\n',
      '\r\x1b[Jnext',
    ]);
    // Where the reply's last row ends, for a marker after it (screen.endReply).
    expect(md.column()).toBe(4);
  });

  it('leaves the cursor on its own line when the last line renders to nothing (a closing fence)', async () => {
    const render = await loadMarkdown(new Chalk({ level: 0 }), 80);
    let text = '';
    const md = createMarkdownStream(render, (t) => (text += t), () => 80);
    md.push('```\ncode\n```');
    expect(md.end()).toBe(true);
    expect(md.column()).toBe(0);
    expect(text.endsWith('\r\x1b[J')).toBe(true);
  });
});
