import { describe, expect, it } from 'vitest';
import { breaksDocument, exportMarkdown, fenced } from '../../../src/export/markdown.js';
import { richSnapshot } from './fixture.js';

describe('the Markdown export', () => {
  it('fences each message with more backticks than it holds, so its own fences stay inside', () => {
    expect(fenced('plain')).toBe('```\nplain\n```');
    expect(fenced('a ```js\nx\n```')).toBe('````\na ```js\nx\n```\n````');
    expect(fenced('````md\n```\n````')).toBe('`````\n````md\n```\n````\n`````');
  });

  it('keeps each message as Markdown under a heading with the speaker and the time', () => {
    const snapshot = richSnapshot();
    snapshot.messages[0]!.content = '## Steps\n\n- **bold** item\n- [link](https://example.com)\n\n```ts\nconst a = 1;\n```\n';
    const md = exportMarkdown(snapshot, '0.1.0');
    expect(md).toContain('### You · 2026-11-22 14:30:10 UTC\n\n## Steps\n\n- **bold** item\n- [link](https://example.com)\n\n```ts\nconst a = 1;\n```\n\n### Assistant');
  });

  it('fences only a message that would break the document, and shows control characters inert', () => {
    expect(breaksDocument('plain **text**\n\n```js\nx()\n```')).toBe(false);
    expect(breaksDocument('cut short\n```py\nprint(1')).toBe(true);
    expect(breaksDocument('<!-- never closed\nmore')).toBe(true);
    expect(breaksDocument('<script>x()</script> closed')).toBe(false);
    expect(breaksDocument('[ref]: https://example.com')).toBe(true);
    const snapshot = richSnapshot();
    snapshot.messages[3]!.content = 'An answer cut short\n```py\nprint(1';
    snapshot.messages[4]!.content = 'clear \x1b[2J\x1b[H and copy \x1b]52;c;ZXZpbA==\x07';
    const md = exportMarkdown(snapshot, '0.1.0');
    expect(md).toContain('### Assistant · interrupted · 2026-11-22 14:30:13 UTC\n\n````\nAn answer cut short\n```py\nprint(1\n````\n\n### Assistant · superseded');
    expect(md).toContain('clear ␛[2J␛[H and copy ␛]52;c;ZXZpbA==␇');
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('is a transcript with roles, UTC times, marks, the archived conversation and the summary', () => {
    const md = exportMarkdown(richSnapshot(), '0.1.0');
    expect(md).toContain('# Fences & \\<tags\\>\n');
    expect(md).toContain('- **Session:** `session-20261122-143000`\n');
    expect(md).toContain('- **Forked from:** session-20261121-090000 at message 4\n');
    expect(md).toContain('## Earlier conversation 1 of 1, summarised by /compact on 2026-11-22 14:30:05 UTC\n\n### You · 2026-11-22 14:30:01 UTC\n\nfirst question\n');
    expect(md).toContain('## Current conversation\n\n**Summary**\n\nWe talked about fences.\n');
    expect(md).toContain('### You · 2026-11-22 14:30:10 UTC\n\nShow me a fence:\n````md\n```js\nx()\n```\n````\n');
    expect(md).toContain('### Assistant · gpt-4o · 2026-11-22 14:30:11 UTC\n\nCalling a tool\n\nTool call `read_file` (`call_1`):\n\n```json\n');
    // A tool's result is data: fenced.
    expect(md).toContain('### Tool result (call\\_1) · 2026-11-22 14:30:12 UTC\n\n```\nfile text\n```\n');
    expect(md).toContain('### Tool result (call\\_1) · 2026-11-22 14:30:12 UTC\n');
    // Backticks in the middle of a line open no fence: the message stays Markdown.
    expect(md).toContain('### Assistant · interrupted · 2026-11-22 14:30:13 UTC\n\nAn answer cut short ```py\nprint(1\n\n### Assistant · superseded by /retry');
    expect(md.endsWith('---\n\n*Exported by chatkeep 0.1.0.*\n')).toBe(true);
  });
});
