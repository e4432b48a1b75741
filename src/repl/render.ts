/**
 * The renderers every host shares: the lines a command or the controller produced, on a
 * `Screen` (fitted, coloured only where the stream shows colour: NO_COLOR and FORCE_COLOR are
 * honoured), and the block shown when a session is opened.
 */
import { colorDepth, createScreen, type Screen } from '../terminal/screen.js';
import { resumedLine, resumeNotices, transcriptTail, type RenderMarkdown } from '../terminal/format.js';
import type { Session } from '../session/api/session-api.js';
import type { OutputLine } from './dispatch.js';

/** Shows `lines`, each on its screen channel: command output on stdout, the rest as status. */
export function showLines(screen: Screen, lines: readonly OutputLine[]): void {
  for (const line of lines) {
    if (line.level === 'info') screen.info(line.text);
    else if (line.level === 'status') screen.status(line.text);
    else if (line.level === 'warning') screen.warn(line.text);
    else screen.error(line.text);
  }
}

/** What a line that ran a command gives: its output, then what the session switched to holds. */
export function showDone(screen: Screen, done: { output: readonly OutputLine[]; switched?: boolean }, session: Session, now = new Date(), render?: RenderMarkdown): void {
  showLines(screen, done.output);
  if (done.switched) showResumed(screen, session, now, render);
}

/** `Resumed session …`, what resuming recovered, and the last few exchanges (the assistant's drawn by `render`, as live replies are). */
export function showResumed(screen: Screen, session: Session, now: Date, render?: RenderMarkdown): void {
  screen.status(resumedLine(session, now));
  for (const notice of resumeNotices(session)) screen.warn(notice);
  const tail = transcriptTail(session.messages, render ? { render } : {});
  if (tail.length > 0) screen.recap(tail.join('\n'));
}

/**
 * A screen over one output stream (a host's REPL writes everything to one): colour as the stream
 * reports it (`hasColors()` honours NO_COLOR, FORCE_COLOR and TERM), none on a pipe.
 */
export function screenFor(output: NodeJS.WritableStream): Screen {
  const tty = output as Partial<NodeJS.WriteStream>;
  const terminal = tty.isTTY === true;
  return createScreen({ stdout: output, stderr: output, terminal, colorLevel: terminal ? colorDepth(tty) : 0 });
}
