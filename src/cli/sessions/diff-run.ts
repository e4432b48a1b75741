/**
 * `chatkeep sessions diff A B`: where two sessions part (the messages they begin with in
 * common are counted, not printed), then each side's messages after it. Exit 0 when they hold
 * the same messages, 1 when they differ, as `diff` does; 2 for a bad ID. Reading takes no lock.
 */
import { openSessions } from '../../index.js';
import { compareMessages } from '../../session/model/compare.js';
import type { Message } from '../../session/api/data.js';
import { noSuchSession } from '../../session/api/ids.js';
import { sessionsMayExist } from '../../store/choice.js';
import { loadWidths } from '../../terminal/table.js';
import { diffLines } from '../../terminal/session-diff.js';
import { visibleText } from '../../text/visible-text.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';

export async function runDiff(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout } = environment;
  const [first, second] = command.ids as [string, string];
  if (!sessionsMayExist(environment)) throw noSuchSession(first);
  const widths = await loadWidths();
  const sessions = await openSessions({ home, store, cwd, env });
  const a = await sessions.read(first);
  const b = await sessions.read(second);
  const comparison = compareMessages(a.messages, b.messages);
  if (command.options.json === true) {
    const side = (id: string, title: string | null, all: readonly Message[], rest: readonly Message[]): Record<string, unknown> => ({
      id,
      title,
      messageCount: all.length,
      after: rest.map((m) => ({ role: m.role, content: m.content, timestamp: m.timestamp.toISOString() })),
    });
    const json = { same: comparison.same, common: comparison.common, a: side(a.id, a.title, a.messages, comparison.a), b: side(b.id, b.title, b.messages, comparison.b) };
    stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    // Side by side only on a terminal: a pipe gets one side after the other, which a script can read.
    const width = environment.terminal === true ? environment.columns : undefined;
    stdout.write(`${visibleText(diffLines(widths, { id: a.id, title: a.title }, { id: b.id, title: b.title }, comparison, width).join('\n'))}\n`);
  }
  return comparison.same ? 0 : 1;
}
