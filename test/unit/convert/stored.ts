/** The converters' tests: messages appended to a new session in a fresh data home, closed, and resumed from disk. */
import { openSessions } from '../../../src/index.js';
import type { NewMessage } from '../../../src/session/api/data.js';
import type { Session } from '../../../src/session/api/session-api.js';
import { tmpHome } from '../../helpers/tmp-home.js';

export async function storedAndResumed(messages: NewMessage[]): Promise<Session> {
  const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
  const session = await sessions.create();
  await session.append(...(messages as [NewMessage, ...NewMessage[]]));
  await session.close();
  return sessions.resume(session.id);
}
