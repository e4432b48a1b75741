/** `chatkeep sessions restore ID`: a session back from the trash. */
import { resumeLine } from '../../repl/host.js';
import { PLAIN_CHATKEEP } from '../chatkeep-host.js';
import type { SessionsCommand, SessionsEnvironment } from '../sessions-common.js';
import { start } from './trash-group-run.js';

/** `restore ID`: back from the trash, resumable as before. */
export async function runRestore(command: SessionsCommand, environment: SessionsEnvironment): Promise<number> {
  const { sessions, out } = await start(command, environment, true);
  const restored = await sessions!.restore(command.ids[0]!);
  out.data(restored, () => `Restored ${restored.id} to ${restored.project}. ${resumeLine(environment.host ?? PLAIN_CHATKEEP, restored.id)}`);
  return 0;
}
