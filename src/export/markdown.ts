/**
 * The Markdown export: a readable transcript. Each message is kept as the Markdown it is, under a
 * heading naming the speaker and the time. Only a message that would break the document around
 * it (an unclosed code fence, as an interrupted reply leaves; an HTML block that runs on to its
 * end marker; a link reference definition, which would apply to every message) is put inside a
 * code fence longer than any run of backticks in it, and so are tool results (data, not prose).
 * Control characters are shown as visible stand-ins (visibleText): a terminal that prints the
 * file (`cat`) must not clear its screen or write its clipboard.
 */
import type { Message, SessionSnapshot } from '../session/api/data.js';
import { visibleText } from '../text/visible-text.js';
import { documentTitle, messageHeading, sessionFacts, sessionParts, utcTime } from './describe.js';

/** The Markdown transcript of `snapshot` (ends in a newline). */
export function exportMarkdown(snapshot: SessionSnapshot, toolVersion: string): string {
  const blocks: string[] = [`# ${escapeInline(visibleText(documentTitle(snapshot)))}`];
  blocks.push(sessionFacts(snapshot).map(([label, value]) => `- **${label}:** ${label === 'Session' || label === 'Project' ? codeSpan(value) : escapeInline(value)}`).join('\n'));
  for (const part of sessionParts(snapshot)) {
    blocks.push(`## ${escapeInline(part.heading)}`);
    if (part.summary !== null) blocks.push('**Summary**', asMarkdown(part.summary));
    if (part.messages.length === 0) blocks.push('*No messages.*');
    for (const message of part.messages) blocks.push(...messageBlocks(message));
  }
  blocks.push('---', `*Exported by chatkeep ${escapeInline(toolVersion)}.*`);
  return `${blocks.join('\n\n')}\n`;
}

function messageBlocks(m: Message): string[] {
  const text = visibleText(m.content);
  const blocks = [`### ${escapeInline(messageHeading(m))} · ${utcTime(m.timestamp)}`, m.role === 'tool' ? fenced(text) : asMarkdown(text)];
  for (const call of m.toolCalls ?? []) blocks.push(`Tool call ${codeSpan(call.name)} (${codeSpan(call.id)}):`, fenced(visibleText(call.arguments), 'json'));
  return blocks;
}

/** A message's text as Markdown in the document: as it is, or fenced when it would break what follows. */
function asMarkdown(raw: string): string {
  const text = visibleText(raw).replace(/^(\s*\n)+|\s+$/g, '');
  if (text === '') return '*(empty)*';
  return breaksDocument(text) ? fenced(text) : text;
}

/**
 * True when `text`, put between two headings, would change the document outside it: a code fence
 * it opens and never closes, an HTML block of the kinds that run to an end marker (`<script`,
 * `<pre`, `<style`, `<textarea`, `<!--`, `<?`, `<!X`, `<![CDATA[`) without that marker, or a link
 * reference definition (it would apply to the whole document).
 */
export function breaksDocument(text: string): boolean {
  let fence: string | undefined;
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = open[1];
      continue;
    }
    if (/^ {0,3}\[[^\]]+\]:/.test(line)) return true;
    const html = /^ {0,3}<(script|pre|style|textarea|!--|\?|![A-Z]|!\[CDATA\[)/i.exec(line);
    if (html) {
      const end = { '!--': '-->', '?': '?>', '![cdata[': ']]>' }[html[1]!.toLowerCase()] ?? (/^![A-Z]/i.test(html[1]!) ? '>' : `</${html[1]!.toLowerCase()}>`);
      if (!lines.slice(i).join('\n').toLowerCase().includes(end.toLowerCase())) return true;
    }
  }
  return fence !== undefined;
}

/** `text` in a backtick fence longer than any run of backticks inside it. */
export function fenced(text: string, info = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text) + 1));
  return `${fence}${info}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}`;
}

/** `text` as inline code, delimited by more backticks than any run inside it. */
function codeSpan(text: string): string {
  const ticks = '`'.repeat(longestRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function longestRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** Text outside code, with the characters that would turn into markup escaped. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}
