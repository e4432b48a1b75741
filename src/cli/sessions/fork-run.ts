/**
 * `chatkeep sessions fork ID`: what `--fork ID` starts a chat in, made and left closed, for a
 * script or a program that goes on in it itself (a LangGraph thread forked: its checkpoints go
 * with a whole fork, docs/design.md §3). The source is read without its lock and never written.
 */
import { openSessions } from '../../index.js';
import { noSuchSession } from '../../session/api/ids.js';
import { sessionsMayExist } from '../../store/choice.js';
import { resumeLine } from '../../repl/host.js';
import { parseForkAt } from '../../repl/fork-args.js';
import { PLAIN_CHATKEEP } from '../chatkeep-host.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';

export async function runFork(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { home, store, cwd, env, stdout } = environment;
  const id = command.id!;
  // Checked before anything is opened: bad input creates nothing.
  const at = command.options.at === undefined ? undefined : parseForkAt(command.options.at);
  if (!sessionsMayExist(environment)) throw noSuchSession(id);
  const sessions = await openSessions({ home, store, cwd, env });
  try {
    const title = command.options.title;
    const made = await sessions.fork(id, { ...(at !== undefined ? { at } : {}), ...(title !== undefined ? { title } : {}) });
    const { forkedFrom } = made.resumeReport;
    const count = made.messages.length;
    await made.close();
    const from = forkedFrom?.id ?? id;
    stdout.write(
      command.options.json === true
        ? `${JSON.stringify({ id: made.id, parentId: from, forkPoint: forkedFrom?.at ?? count, messageCount: count }, null, 2)}\n`
        : `Forked ${from} into ${made.id} (${count} ${count === 1 ? 'message' : 'messages'}). ${resumeLine(environment.host ?? PLAIN_CHATKEEP, made.id)}\n`,
    );
    return 0;
  } finally {
    await sessions.close();
  }
}
