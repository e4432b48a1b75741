import { describe, expect, it } from 'vitest';
import { escapeHtml, exportHtml, splitFences } from '../../../src/export/html.js';
import { richSnapshot } from './fixture.js';

describe('the HTML export', () => {
  it('escapes everything that could become markup', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;');
    const snapshot = richSnapshot();
    snapshot.messages[0]!.content = '<script>alert(1)</script>';
    const html = exportHtml(snapshot, '0.1.0');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<title>Fences &amp; &lt;tags&gt;</title>');
  });

  it('is self-contained: no script, no external resource, a policy that forbids both', () => {
    const html = exportHtml(richSnapshot(), '0.1.0');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('shows fenced code blocks as code, an unclosed one to the end of its message', () => {
    expect(splitFences('intro\n```js\nx()\n```\noutro')).toEqual([
      { code: false, text: 'intro' },
      { code: true, text: 'x()' },
      { code: false, text: 'outro' },
    ]);
    expect(splitFences('````md\n```\ninner\n```\n````')).toEqual([{ code: true, text: '```\ninner\n```' }]);
    expect(splitFences('cut ```py\n~~~\nprint(1')).toEqual([{ code: false, text: 'cut ```py' }, { code: true, text: 'print(1' }]);
    expect(splitFences('a `` ```not a fence``` ``')).toEqual([{ code: false, text: 'a `` ```not a fence``` ``' }]);
  });
});
