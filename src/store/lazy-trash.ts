import type { SessionTrash } from '../session/format/store.js';

/**
 * A store's trash whose code loads on first use (no chat and no listing needs it): one
 * forwarding for every store, each giving only how its own trash is made.
 */
export function lazyTrash(load: () => Promise<SessionTrash>): SessionTrash {
  return {
    put: async (id) => (await load()).put(id),
    restore: async (id) => (await load()).restore(id),
    list: async () => (await load()).list(),
    empty: async (olderThan) => (await load()).empty(olderThan),
  };
}
