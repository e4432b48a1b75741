/**
 * The sessions the framework adapters hold in this process, shared by every handle on the same
 * ID: a second `openAgentSession`, `openChatHistory` or AI SDK chat on an ID this process already
 * holds gets the same session (one writer, one lock), and the lock is released when the last
 * handle lets go. A session the program itself holds (created or resumed outside the adapters)
 * is used as it is and never closed here.
 */
import type { SaveResult, Session } from '../session/api/session-api.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import { openOrCreateFor, sessionIdFor } from './framework-id.js';

/** The assistant a host says it talks to (`{ name: 'openai', model: 'gpt-4o-mini' }`): recorded as the session's provider. */
export interface HostProvider {
  name: string;
  model?: string | null;
}

interface Shared {
  session: Promise<Session>;
  handles: number;
  /** Opened by an adapter (closed with the last handle), not by the program. */
  ours: boolean;
}

const byManager = new WeakMap<SessionManager, Map<string, Shared>>();

function sharedOf(sessions: SessionManager): Map<string, Shared> {
  let map = byManager.get(sessions);
  if (!map) byManager.set(sessions, (map = new Map()));
  return map;
}

/** A handle's hold on a shared session: `release()` once, when the handle closes. */
export interface SharedHold {
  session: Session;
  /** Saves; the last handle's release closes the session (saves, releases its lock). */
  release(): Promise<SaveResult>;
}

/**
 * The session `key` names (`sessionIdFor`), shared with the other handles on it in this process:
 * the one already held here, else resumed (its lock taken: `SessionInUseError` while another
 * process holds it) or created. Without a key, a new session. `provider`: recorded as the
 * session's when it differs (what `sessions list` and `show` name as its assistant).
 */
export async function acquire(sessions: SessionManager, key?: string, provider?: HostProvider): Promise<SharedHold> {
  const map = sharedOf(sessions);
  let id: string;
  let entry: Shared | undefined;
  if (key === undefined) {
    const session = await sessions.create();
    id = session.id;
    entry = { session: Promise.resolve(session), handles: 0, ours: true };
    map.set(id, entry);
  } else {
    id = sessionIdFor(key);
    entry = map.get(id);
    if (!entry) {
      const mine = sessions.opened(id);
      entry = { session: mine ? Promise.resolve(mine) : openOrCreateFor(sessions, key), handles: 0, ours: !mine };
      map.set(id, entry);
      const failed = entry;
      entry.session.catch(() => {
        if (map.get(id) === failed) map.delete(id);
      });
    }
  }
  entry.handles += 1;
  const held = entry;
  let session: Session;
  try {
    session = await held.session;
  } catch (err) {
    held.handles -= 1;
    throw err;
  }
  if (provider && (session.provider.name !== provider.name || session.provider.model !== (provider.model ?? null))) {
    await session.setProvider({ name: provider.name, model: provider.model ?? null });
  }
  let released: Promise<SaveResult> | undefined;
  return {
    session,
    release: () =>
      (released ??= (async () => {
        held.handles -= 1;
        if (held.handles > 0) return session.save({ ifChanged: true });
        if (map.get(id) === held) map.delete(id);
        return held.ours ? session.close() : session.save({ ifChanged: true });
      })()),
  };
}
