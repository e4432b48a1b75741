/**
 * The HTML export: one self-contained page (inline CSS, no script, no external resource, a
 * Content-Security-Policy that forbids both anyway) that reads well in light and dark mode and
 * on a phone. Each message's Markdown is rendered (headings, emphasis, lists, tables, links,
 * code blocks highlighted under their language) and sanitized to an allowlist; raw HTML in a
 * message, and every other text from the session, is escaped, so `<script>` is shown as text.
 */
import type { Message, SessionSnapshot } from '../session/api/data.js';
import { documentTitle, messageHeading, sessionFacts, sessionParts, utcTime } from './describe.js';
import { createHtmlMarkdown } from './html-markdown.js';

const PAGE_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0;
  --user: #eef4ff; --assistant: #f6f8fa; --tool: #fbf6e9; --code: #f0f2f4; --link: #0969da;
  --hl-keyword: #cf222e; --hl-string: #0a3069; --hl-number: #0550ae; --hl-title: #8250df; --hl-meta: #953800; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d;
    --user: #132339; --assistant: #151b23; --tool: #272115; --code: #1e242c; --link: #4493f8;
    --hl-keyword: #ff7b72; --hl-string: #a5d6ff; --hl-number: #79c0ff; --hl-title: #d2a8ff; --hl-meta: #ffa657; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.75rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--border); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.75rem; margin: 0; color: var(--muted); font-size: 0.9rem; }
dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
article { margin: 0.75rem 0; padding: 0.6rem 0.8rem; border: 1px solid var(--border); border-radius: 8px; min-width: 0; }
article.user { background: var(--user); } article.assistant { background: var(--assistant); } article.tool { background: var(--tool); }
article.superseded { opacity: 0.7; }
.meta { display: flex; flex-wrap: wrap; gap: 0 0.75rem; font-size: 0.85rem; color: var(--muted); margin-bottom: 0.35rem; }
.who { font-weight: 600; color: var(--fg); }
.text { overflow-wrap: anywhere; margin: 0.25rem 0; }
.text > :first-child { margin-top: 0; } .text > :last-child { margin-bottom: 0; }
.text p { margin: 0.4rem 0; } .text p.raw { white-space: pre-wrap; }
.text h3, .text h4, .text h5, .text h6 { margin: 0.8rem 0 0.4rem; font-size: 1rem; }
.text h3 { font-size: 1.1rem; }
.text ul, .text ol { margin: 0.4rem 0; padding-left: 1.5rem; }
.text blockquote { margin: 0.4rem 0; padding-left: 0.75rem; border-left: 3px solid var(--border); color: var(--muted); }
.text table { border-collapse: collapse; margin: 0.4rem 0; display: block; overflow-x: auto; max-width: 100%; }
.text th, .text td { border: 1px solid var(--border); padding: 0.2rem 0.5rem; }
.text a { color: var(--link); }
code { font: 0.875em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: 0.05rem 0.25rem; border-radius: 4px; }
.code { margin: 0.4rem 0; } .code .lang { font-size: 0.75rem; color: var(--muted); margin-bottom: 0.1rem; }
pre { background: var(--code); padding: 0.6rem; border-radius: 6px; overflow-x: auto; margin: 0.4rem 0;
  font: 0.875rem/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre code { background: none; padding: 0; font: inherit; }
.hljs-keyword, .hljs-selector-tag, .hljs-literal, .hljs-doctag { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-addition, .hljs-attribute { color: var(--hl-string); }
.hljs-number, .hljs-built_in, .hljs-type, .hljs-symbol { color: var(--hl-number); }
.hljs-comment, .hljs-quote, .hljs-deletion { color: var(--muted); font-style: italic; }
.hljs-title, .hljs-section, .hljs-attr, .hljs-name, .hljs-tag { color: var(--hl-title); }
.hljs-meta, .hljs-variable, .hljs-template-variable, .hljs-params { color: var(--hl-meta); }
.summary { border-left: 3px solid var(--border); padding-left: 0.75rem; }
footer { color: var(--muted); font-size: 0.8rem; margin: 2rem 0 1rem; }
`;

let markdown: Promise<(source: string) => string> | undefined;


/** The page for `snapshot`. */
export async function exportHtml(snapshot: SessionSnapshot, toolVersion: string): Promise<string> {
  markdown ??= createHtmlMarkdown((text) => escapeHtml(text));
  const renderMarkdown = await markdown;
  // A message's text: its Markdown rendered and sanitized (html-markdown.ts).
  const body = (text: string): string => `<div class="text">${renderMarkdown(text)}</div>`;
  const messageHtml = (message: Message): string => messageBlock(message, body);
  const facts = sessionFacts(snapshot).map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n');
  const parts = sessionParts(snapshot).map((part) => {
    const summary = part.summary === null ? '' : `<div class="summary"><p class="who">Summary</p>${body(part.summary)}</div>\n`;
    const messages = part.messages.length === 0 ? '<p class="meta">No messages.</p>' : part.messages.map(messageHtml).join('\n');
    return `<section>\n<h2>${escapeHtml(part.heading)}</h2>\n${summary}${messages}\n</section>`;
  });
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    // Belt and braces: even text that escaped escaping could neither run nor fetch anything.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(documentTitle(snapshot))}</title>`,
    `<style>${PAGE_CSS}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<header>\n<h1>${escapeHtml(documentTitle(snapshot))}</h1>\n<dl>\n${facts}\n</dl>\n</header>`,
    ...parts,
    `<footer>Exported by chatkeep ${escapeHtml(toolVersion)}.</footer>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A message as an article, its text drawn by `body`. */
function messageBlock(m: Message, body: (text: string) => string): string {
  const classes = [m.role, m.superseded ? 'superseded' : ''].filter(Boolean).join(' ');
  const iso = m.timestamp.toISOString();
  const calls = (m.toolCalls ?? []).map(
    (call) => `<p class="meta">Tool call <code>${escapeHtml(call.name)}</code> (${escapeHtml(call.id)})</p><pre><code>${escapeHtml(call.arguments)}</code></pre>`,
  );
  return [
    `<article class="${classes}">`,
    `<div class="meta"><span class="who">${escapeHtml(messageHeading(m))}</span><time datetime="${iso}">${utcTime(m.timestamp)}</time></div>`,
    body(m.content),
    ...calls,
    '</article>',
  ].join('\n');
}

/** Text as HTML character data or an attribute value: nothing in it can become markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]!};`);
}
