/**
 * A message's Markdown as HTML for the export page: rendered by `marked` (GitHub-flavoured, a
 * single newline a line break, as a chat reads), code blocks highlighted by highlight.js with
 * their language kept, then cut down by `sanitize-html` to an allowlist of plain text elements,
 * so nothing a message holds can run, fetch or navigate by itself:
 * - raw HTML in a message is shown as text, not interpreted (as it always was);
 * - links keep only http, https and mailto targets, never `javascript:` or `data:`;
 * - images become links to them (an image would be a request when the page opens);
 * - no attribute survives that could run script or load anything (no `on…`, `style`, `src`).
 * Loaded only when an HTML export is written: the three libraries are imported by
 * `createHtmlMarkdown`, never at the top (in the CLI's bundle a top-level import of an external
 * package is hoisted into the bundle's own imports, and would load at every start).
 */
import type { Tokens } from 'marked';
import type sanitizeHtml from 'sanitize-html';
import { importRequired } from '../session/runtime/optional-package.js';

/** The sanitizer's allowlist: the elements Markdown produces, and the attributes they need. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a', 'span', 'div', 'input'],
  allowedAttributes: { a: ['href', 'title', 'rel'], ol: ['start'], th: ['align'], td: ['align'], input: ['type', 'checked', 'disabled'], code: ['class'], span: ['class'], div: ['class'], p: ['class'] },
  allowedClasses: { code: ['hljs', 'language-*'], span: ['hljs-*'], div: ['code', 'lang'], p: ['raw'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Anything else is shown as text rather than dropped without a trace.
  disallowedTagsMode: 'escape',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer nofollow' } }),
    input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }),
  },
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
};

/** A language name as a class and a label: letters, digits and `+#.-` only. */
function languageOf(info: string | undefined): string {
  return (info ?? '').trim().split(/\s/)[0]!.replace(/[^\w+#.-]/g, '').slice(0, 40);
}

/** Renders messages' Markdown to sanitized HTML (the libraries load on the first call). */
export async function createHtmlMarkdown(escapeHtml: (text: string) => string): Promise<(source: string) => string> {
  const needs = 'An HTML export';
  const [{ default: hljs }, { Marked }, { default: sanitize }] = await Promise.all([
    importRequired('highlight.js', needs, () => import('highlight.js/lib/common')),
    importRequired('marked', needs, () => import('marked')),
    importRequired('sanitize-html', needs, () => import('sanitize-html')),
  ]);
  const marked = new Marked({
    gfm: true,
    breaks: true,
    renderer: {
      // Headings sit under the page's h1 and the part's h2: a message's `#` is an h3.
      heading({ tokens, depth }: Tokens.Heading): string {
        const level = Math.min(6, depth + 2);
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      code({ text, lang }: Tokens.Code): string {
        const language = languageOf(lang);
        const known = language !== '' && hljs.getLanguage(language) !== undefined;
        const body = known ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
        const label = language === '' ? '' : `<div class="lang">${escapeHtml(language)}</div>`;
        return `<div class="code">${label}<pre><code class="hljs${language === '' ? '' : ` language-${language}`}">${body}</code></pre></div>\n`;
      },
      // Raw HTML in a message is text the user or the model wrote, not markup for this page.
      html({ text, block }: Tokens.HTML | Tokens.Tag): string {
        return block ? `<p class="raw">${escapeHtml(text)}</p>\n` : escapeHtml(text);
      },
      image({ href, text }: Tokens.Image): string {
        return `<a href="${escapeHtml(href)}">${escapeHtml(text === '' ? href : text)}</a>`;
      },
    },
  });
  return (source) => sanitize(String(marked.parse(source, { async: false })), SANITIZE);
}
