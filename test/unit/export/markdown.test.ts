import { describe, expect, it } from 'vitest';
import { exportMarkdown, fenced } from '../../../src/export/markdown.js';
import { richSnapshot } from './fixture.js';

describe('the Markdown export', () => {
  it('fences each message with more backticks than it holds, so its own fences stay inside', () => {
    expect(fenced('plain')).toBe('```\nplain\n```');
    expect(fenced('a ```js\nx\n```')).toBe('````\na ```js\nx\n```\n````');
    expect(fenced('````md\n```\n````')).toBe('`````\n````md\n```\n````\n`````');
  });

  it('is a transcript with roles, UTC times, marks, the archived conversation and the summary', () => {
    const md = exportMarkdown(richSnapshot(), '0.1.0');
    expect(md).toContain('# Fences & \\<tags\\>\n');
    expect(md).toContain('- **Session:** `session-20261122-143000`\n');
    expect(md).toContain('- **Forked from:** session-20261121-090000 at message 4\n');
    expect(md).toContain('## Earlier conversation 1 of 1, cleared by /reset on 2026-11-22 14:30:05 UTC\n\n### You · 2026-11-22 14:30:01 UTC\n\n```\nfirst question\n```\n');
    expect(md).toContain('## Current conversation\n\n**Summary**\n\n```\nWe talked about fences.\n```\n');
    expect(md).toContain('### You · 2026-11-22 14:30:10 UTC\n\n`````\nShow me a fence:\n````md\n```js\nx()\n```\n````\n`````\n');
    expect(md).toContain('### Assistant · gpt-4o · 2026-11-22 14:30:11 UTC\n\n```\nCalling a tool\n```\n\nTool call `read_file` (`call_1`):\n\n```json\n');
    expect(md).toContain('### Tool result (call\\_1) · 2026-11-22 14:30:12 UTC\n');
    // An interrupted reply's unclosed fence ends with its message.
    expect(md).toContain('### Assistant · interrupted · 2026-11-22 14:30:13 UTC\n\n````\nAn answer cut short ```py\nprint(1\n````\n\n### Assistant · superseded by /retry');
    expect(md.endsWith('---\n\n*Exported by chatkeep 0.1.0.*\n')).toBe(true);
  });
});
