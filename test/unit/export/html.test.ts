import { describe, expect, it } from 'vitest';
import { escapeHtml, exportHtml } from '../../../src/export/html.js';
import { richSnapshot } from './fixture.js';

describe('the HTML export', () => {
  it('escapes everything that could become markup', async () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;');
    const snapshot = richSnapshot();
    snapshot.messages[0]!.content = '<script>alert(1)</script>';
    const html = await exportHtml(snapshot, '0.1.0');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<title>Fences &amp; &lt;tags&gt;</title>');
  });

  it('is self-contained: no script, no external resource, a policy that forbids both', async () => {
    const html = await exportHtml(richSnapshot(), '0.1.0');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it("renders each message's Markdown: headings under the page's own, emphasis, lists, tables, links", async () => {
    const snapshot = richSnapshot();
    snapshot.messages[0]!.content = '## Steps\n\nSome **bold** and *soft* text, a [link](https://example.com/a?b=1&c=2).\n\n- one\n- two\n\n1. first\n\n| a | b |\n|---|:-:|\n| 1 | 2 |';
    const html = await exportHtml(snapshot, '0.1.0');
    expect(html).toContain('<h4>Steps</h4>');
    expect(html).toContain('Some <strong>bold</strong> and <em>soft</em> text, a <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">link</a>.');
    expect(html).toContain('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(html).toContain('<ol>\n<li>first</li>\n</ol>');
    expect(html).toMatch(/<table>\n<thead>\n<tr>\n<th>a<\/th>\n<th align="center">b<\/th>/);
  });

  it('highlights a code block and keeps its language; an unknown language is shown plain under its name', async () => {
    const snapshot = richSnapshot();
    snapshot.messages[0]!.content = '```ts\nconst answer = 42;\n```\n\n```foolang\nx <- <b>1</b>\n```';
    const html = await exportHtml(snapshot, '0.1.0');
    expect(html).toContain('<div class="code"><div class="lang">ts</div><pre><code class="hljs language-ts"><span class="hljs-keyword">const</span> answer = <span class="hljs-number">42</span>;');
    expect(html).toContain('<div class="lang">foolang</div><pre><code class="hljs language-foolang">x &lt;- &lt;b&gt;1&lt;/b&gt;');
    // A fence inside a longer fence is the outer block's text.
    expect(await exportHtml(richSnapshot(), '0.1.0')).toContain('<div class="lang">md</div><pre><code class="hljs language-md">');
  });

  it('keeps hostile Markdown inert: no script, no request, no link that runs code, no event handler', async () => {
    const snapshot = richSnapshot();
    snapshot.messages[0]!.content = [
      '[click](javascript:alert(1)) [data](data:text/html,<script>alert(2)</script>) [vb](vbscript:x) <javascript:alert(3)>',
      '![pic](http://127.0.0.1:9/pixel.png) **<img src=x onerror="alert(4)">** <svg onload="alert(5)"></svg>',
      '<a href="javascript:alert(6)">raw link</a> <iframe src="http://127.0.0.1:9/"></iframe>',
      '| <script>alert(7)</script> | [x](JaVaScRiPt:alert(8)) |\n|---|---|\n| a | b |',
    ].join('\n\n');
    const html = await exportHtml(snapshot, '0.1.0');
    const main = html.slice(html.indexOf('<main>'));
    // Every `<` left is a real tag (text has it escaped): only harmless elements, no handler, no source, no script link.
    const tags = [...main.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/gi)].map((m) => ({ name: m[1]!.toLowerCase(), attributes: m[2]! }));
    expect(new Set(tags.map((t) => t.name))).toEqual(new Set(['main', 'header', 'h1', 'dl', 'dt', 'dd', 'section', 'h2', 'div', 'p', 'br', 'span', 'time', 'article', 'a', 'strong', 'table', 'thead', 'tr', 'th', 'tbody', 'td', 'code', 'pre', 'footer']));
    for (const { attributes } of tags) expect(attributes).not.toMatch(/\s(on\w+|src|style|srcset|formaction)=/i);
    const hrefs = tags.flatMap((t) => [.../\shref="([^"]*)"/.exec(t.attributes)?.slice(1) ?? []]);
    expect(hrefs).toEqual(['http://127.0.0.1:9/pixel.png']);
    expect(main).toContain('&lt;script&gt;alert(7)&lt;/script&gt;');
    expect(main).toContain('<strong>&lt;img src=x onerror="alert(4)"&gt;</strong>');
    // An image is a link to it, opened only if clicked.
    expect(main).toContain('<a href="http://127.0.0.1:9/pixel.png" rel="noopener noreferrer nofollow">pic</a>');
  });
});
