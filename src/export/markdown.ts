/**
 * The Markdown export: a readable transcript. Each message's text is kept exactly as written,
 * inside a code fence longer than any run of backticks in it, so code blocks (and unclosed
 * fences of an interrupted reply) inside a message can neither end it nor swallow what follows.
 */
import type { Message, SessionSnapshot } from '../session/types.js';
import { documentTitle, messageHeading, sessionFacts, sessionParts, utcTime } from './describe.js';

/** The Markdown transcript of `snapshot` (ends in a newline). */
export function exportMarkdown(snapshot: SessionSnapshot, toolVersion: string): string {
  const blocks: string[] = [`# ${escapeInline(documentTitle(snapshot))}`];
  blocks.push(sessionFacts(snapshot).map(([label, value]) => `- **${label}:** ${label === 'Session' || label === 'Project' ? codeSpan(value) : escapeInline(value)}`).join('\n'));
  for (const part of sessionParts(snapshot)) {
    blocks.push(`## ${escapeInline(part.heading)}`);
    if (part.summary !== null) blocks.push('**Summary**', fenced(part.summary));
    if (part.messages.length === 0) blocks.push('*No messages.*');
    for (const message of part.messages) blocks.push(...messageBlocks(message));
  }
  blocks.push('---', `*Exported by chatkeep ${escapeInline(toolVersion)}.*`);
  return `${blocks.join('\n\n')}\n`;
}

function messageBlocks(m: Message): string[] {
  const blocks = [`### ${escapeInline(messageHeading(m))} · ${utcTime(m.timestamp)}`, fenced(m.content)];
  for (const call of m.toolCalls ?? []) blocks.push(`Tool call ${codeSpan(call.name)} (${codeSpan(call.id)}):`, fenced(call.arguments, 'json'));
  return blocks;
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
