/**
 * The block renderers chatkeep gives marked-terminal in place of its own:
 * - lists: marked-terminal 7 prints a list item's inline Markdown raw under marked ≥ 15 (its
 *   `text` renderer ignores the item's inline tokens) and indents every list four spaces with
 *   `*`; here each item is `• text` or `1. text`, its inline Markdown rendered, nested lists
 *   indented under their item;
 * - code: marked-terminal hands any language to the highlighter, which prints its own warning
 *   (`Could not find the language …`) onto the terminal for one it does not know, and colours
 *   with a chalk of its own that follows stdout's terminal. Here a language the highlighter
 *   does not know is shown plain, and the colours come from the screen's chalk instance.
 */
import type { ChalkInstance } from 'chalk';
import type { Token, Tokens } from 'marked';

/** What marked gives a renderer function as `this`. */
interface RendererThis {
  parser: { parse(tokens: Token[]): string; parseInline(tokens: Token[]): string };
}

/** The parts of cli-highlight used here. */
export type Highlighter = Pick<typeof import('cli-highlight'), 'highlight' | 'supportsLanguage' | 'DEFAULT_THEME'>;

/** Common names the highlighter does not know, and the language it does know that fits them. */
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = { jsonc: 'json', json5: 'json', vue: 'xml', svelte: 'xml' };

/** `renderer.list` and `renderer.text`: lists with their inline Markdown rendered. */
export function listRenderers(originalText: (this: unknown, token: unknown) => string): {
  list(this: RendererThis, token: Tokens.List): string;
  text(this: RendererThis, token: Tokens.Text | Tokens.Escape): string;
} {
  return {
    list(token) {
      const start = typeof token.start === 'number' ? token.start : 1;
      const markerWidth = token.ordered ? `${start + token.items.length - 1}.`.length + 1 : 2;
      const items = token.items.map((item, i) => {
        const marker = (token.ordered ? `${start + i}.` : '•').padEnd(markerWidth);
        const lines = itemBody(this, item).split('\n');
        return lines.map((line, j) => (j === 0 ? marker + line : line === '' ? '' : ' '.repeat(markerWidth) + line)).join('\n');
      });
      return `${items.join(token.loose ? '\n\n' : '\n')}\n\n`;
    },
    // A tight list item's text is a block token holding inline tokens: render those.
    text(token) {
      if ('tokens' in token && Array.isArray(token.tokens)) return this.parser.parseInline(token.tokens);
      return originalText.call(this, token);
    },
  };
}

/** An item's blocks (its text, nested lists, code…), one after another; a task's checkbox before its text. */
function itemBody(renderer: RendererThis, item: Tokens.ListItem): string {
  const parts: string[] = [];
  let prefix = '';
  for (const token of item.tokens) {
    if (token.type === 'checkbox') {
      prefix = (token as Tokens.Checkbox).checked ? '[x] ' : '[ ] ';
      continue;
    }
    const text = renderer.parser.parse([token]).replace(/^\n+|\n+$/g, '');
    if (text === '') continue;
    parts.push(prefix + text);
    prefix = '';
  }
  if (prefix !== '') parts.push(prefix.trimEnd());
  return parts.join(item.loose ? '\n\n' : '\n');
}

/**
 * `renderer.code`: the block indented four spaces under its language's name (dim), highlighted
 * when the highlighter knows the language and the screen has colour, else in `plain`.
 */
export function codeRenderer(highlighter: Highlighter, color: ChalkInstance, plain: (text: string) => string): (token: Tokens.Code) => string {
  const theme = themeFor(highlighter, color);
  return (token) => {
    // eslint-disable-next-line no-control-regex
    const code = token.text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
    const lang = (token.lang ?? '').trim().split(/\s/)[0] ?? '';
    const known = lang === '' ? undefined : [lang, LANGUAGE_ALIASES[lang.toLowerCase()]].find((name) => name !== undefined && highlighter.supportsLanguage(name));
    const shown = color.level > 0 && known !== undefined ? highlighter.highlight(code, { language: known, ignoreIllegals: true, theme }) : plain(code);
    const body = shown
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n');
    return `${lang !== '' ? `${color.dim(`  ${lang}`)}\n` : ''}${body}\n\n`;
  };
}

/** The highlighter's default colours, drawn with the screen's chalk (every token named: the rest fall back to the highlighter's own chalk). */
function themeFor(highlighter: Highlighter, color: ChalkInstance): import('cli-highlight').Theme {
  const styles: Record<string, (text: string) => string> = {
    keyword: color.blue,
    built_in: color.cyan,
    type: color.cyan.dim,
    literal: color.blue,
    number: color.green,
    regexp: color.red,
    string: color.red,
    class: color.blue,
    function: color.yellow,
    comment: color.green,
    doctag: color.green,
    meta: color.gray,
    tag: color.gray,
    name: color.blue,
    attr: color.cyan,
    emphasis: color.italic,
    strong: color.bold,
    link: color.underline,
    addition: color.green,
    deletion: color.red,
  };
  const plain = (text: string): string => text;
  return Object.fromEntries(Object.keys(highlighter.DEFAULT_THEME).map((key) => [key, styles[key] ?? plain]));
}
