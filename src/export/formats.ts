/** The export formats, by name: what `--format` and `/export` accept, and the text each writes. */
import type { SessionSnapshot } from '../session/api/data.js';
import type { TextSink } from '../session/format/sliced-json.js';

export const EXPORT_FORMATS = ['json', 'md', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

type Renderer = (snapshot: SessionSnapshot, toolVersion: string) => string | Promise<string>;

/** Each format's module, loaded when that format is written (the HTML one brings a Markdown renderer, a highlighter and a sanitizer). */
const RENDERERS: Record<ExportFormat, () => Promise<Renderer>> = {
  json: async () => (await import('./json.js')).exportJson,
  md: async () => (await import('./markdown.js')).exportMarkdown,
  html: async () => (await import('./html.js')).exportHtml,
};

/** The format a name means (`markdown` is `md`), or undefined. */
export function exportFormat(name: string): ExportFormat | undefined {
  const lower = name.toLowerCase();
  if (lower === 'markdown') return 'md';
  return (EXPORT_FORMATS as readonly string[]).includes(lower) ? (lower as ExportFormat) : undefined;
}

/** The format a file name's extension says (`.json`, `.md`, `.markdown`, `.html`, `.htm`), or undefined. */
export function formatOfFile(file: string): ExportFormat | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(file)?.[1]?.toLowerCase();
  if (ext === 'htm') return 'html';
  return ext === undefined ? undefined : exportFormat(ext);
}

/** The export of `snapshot` in `format`, written by chatkeep `toolVersion`. */
export async function renderExport(format: ExportFormat, snapshot: SessionSnapshot, toolVersion: string): Promise<string> {
  return (await RENDERERS[format]())(snapshot, toolVersion);
}

/**
 * The same text as `renderExport`, handed to `sink` in pieces: the JSON archive as it is made
 * (it may be as large as the session), the pages for people whole.
 */
export async function writeExport(format: ExportFormat, snapshot: SessionSnapshot, toolVersion: string, sink: TextSink): Promise<void> {
  if (format === 'json') await (await import('./json.js')).exportJsonTo(snapshot, toolVersion, sink);
  else await sink(await renderExport(format, snapshot, toolVersion));
}
