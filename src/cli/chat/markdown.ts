/**
 * Markdown for the terminal: `marked` with `marked-terminal`'s renderer, styled with the
 * screen's own chalk instance (so NO_COLOR, FORCE_COLOR and TERM=dumb hold here too). The
 * packages (marked, marked-terminal, the syntax highlighter, string-width) are loaded by
 * `loadMarkdown` only, which the REPL calls once its first prompt is up: never on the way to it.
 */
import type { ChalkInstance } from 'chalk';
import { codeRenderer, listRenderers } from './markdown-blocks.js';

/** What streaming Markdown to a terminal needs. */
export interface MarkdownRenderer {
  /** Renders Markdown source to terminal text (ANSI styles, no trailing newline). */
  render(source: string): string;
  /** Columns a plain string takes on screen (wide characters count two). */
  width(text: string): number;
}

/**
 * Loads the renderer. `width` is the terminal's column count (rules and tables are fitted to
 * it); code blocks are highlighted and labelled with their language.
 */
export async function loadMarkdown(color: ChalkInstance, width: number): Promise<MarkdownRenderer> {
  const [{ Marked }, { markedTerminal }, { default: stringWidth }, highlighter] = await Promise.all([
    import('marked'),
    import('marked-terminal'),
    import('string-width'),
    import('cli-highlight'),
  ]);
  const extension = markedTerminal(
    {
      width,
      reflowText: false,
      // Emoji shortcodes (`:x:`) and the `#` in front of headings are Markdown source the
      // reader did not ask to see changed; keep the text as the model wrote it.
      emoji: false,
      code: color.yellow,
      blockquote: color.gray.italic,
      html: color.gray,
      heading: color.green.bold,
      firstHeading: color.magenta.bold,
      strong: color.bold,
      em: color.italic,
      codespan: color.yellow,
      del: color.dim.strikethrough,
      link: color.blue,
      href: color.blue.underline,
    },
    { ignoreIllegals: true },
  );
  // Lists and code blocks are drawn by chatkeep's own renderers (see markdown-blocks.ts).
  const renderer = extension.renderer as Record<string, unknown>;
  Object.assign(renderer, listRenderers(renderer.text as (token: unknown) => string), {
    code: codeRenderer({ highlight: highlighter.highlight, supportsLanguage: highlighter.supportsLanguage, DEFAULT_THEME: highlighter.DEFAULT_THEME }, color, color.yellow),
  });
  const marked = new Marked(extension);
  return {
    render: (source) => String(marked.parse(source, { async: false })).replace(/\n+$/, ''),
    width: stringWidth,
  };
}
