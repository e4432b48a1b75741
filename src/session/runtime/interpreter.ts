/**
 * The model's `Interpreter`, which `openSessions` hands to the store it opens: a store keeps
 * listing rows, a search index and trash entries beside its sessions, and learns what a session
 * holds only from here. The reading (replay and all) loads when a store first needs it: creating
 * a session, or listing from a fresh cache, needs none of it.
 */
import type { Interpreter } from '../format/store.js';

const reading = () => import('./reading.js');

export const interpreter: Interpreter = {
  read: async (source, id, projectPath, options) => (await reading()).readSession(source, id, projectPath, options),
  rowWithEvents: async (row, events) => (await reading()).rowWithEvents(row, events),
};
