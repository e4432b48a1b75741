/**
 * What the manager does where a store leaves a capability out (docs/design.md §7): a store must
 * provide only its core (`StoreCore`); `withDefaults` gives the rest of the model a whole store.
 * A listing cache: none (the rows are worked out by `list`); search: the generic one over `list`
 * and `load`; the trash: none, so trashing is refused, saying so; `where`: the store's location;
 * `projectAt`: from `projects`, the path resolved; the input history: kept for this process only.
 */
import { resolve } from 'node:path';
import { NoTrashError } from '../api/errors.js';
import type { ProjectInfo } from '../api/data.js';
import type { IndexRow } from '../api/listing.js';
import type { SearchResults } from '../api/search-data.js';
import { HISTORY_LINES, type LineHistory, type ListingCache, type SessionSource, type SearchRows, type SessionStore, type SessionTrash, type StoreCapabilities } from '../format/store.js';
import { interpreter } from './interpreter.js';

/** A store with every capability but `keptAside` and `checkCaches` (which a store that keeps nothing aside, or no cache, leaves out). */
export type WholeStore = SessionStore & ListingCache & Required<Omit<StoreCapabilities, 'keptAside' | 'checkCaches' | keyof ListingCache>> & Pick<StoreCapabilities, 'checkCaches'>;

const CAPABILITIES = ['recordRow', 'forgetRow', 'noteProblem', 'searchSessions', 'trash', 'history', 'where', 'projectAt'] as const;

/** What the defaults are made with: the model's clock and redaction, and the generic search (a layer above). */
export interface DefaultParts {
  now: () => Date;
  redact: (text: string) => string;
  searchRows: SearchRows;
}

/** `store` itself when it has every capability; otherwise `store` with the defaults where it has none. */
export function withDefaults(store: SessionStore, model: DefaultParts): WholeStore {
  const missing = CAPABILITIES.filter((name) => store[name] === undefined);
  if (missing.length === 0) return store as WholeStore;
  const fallback = defaults(store, model);
  // A store's methods, bound to it once: the proxy is asked for them on every save.
  const bound = new Map<string | symbol, unknown>();
  return new Proxy(store, {
    get(target, name, receiver) {
      if ((missing as readonly (string | symbol)[]).includes(name)) return fallback[name as (typeof CAPABILITIES)[number]];
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      let method = bound.get(name);
      if (method === undefined) bound.set(name, (method = (value as (...args: unknown[]) => unknown).bind(target)));
      return method;
    },
  }) as WholeStore;
}

function defaults(store: SessionStore, { now, redact, searchRows }: DefaultParts): Pick<WholeStore, (typeof CAPABILITIES)[number]> {
  const lines: string[] = [];
  const history: LineHistory = {
    load: () => Promise.resolve(lines.slice(-HISTORY_LINES)),
    append: (line) => {
      if (line.trim()) lines.push(redact(line));
      return Promise.resolve();
    },
  };
  const trash: SessionTrash = {
    put: () => Promise.reject(new NoTrashError(store.location)),
    restore: () => Promise.reject(new NoTrashError(store.location)),
    list: () => Promise.resolve([]),
    empty: () => Promise.resolve([]),
  };
  return {
    recordRow: () => Promise.resolve(),
    forgetRow: () => Promise.resolve(),
    noteProblem: () => Promise.resolve(),
    searchSessions: (query, projects, options) => searchAnyStore(store, searchRows, query, projects, options, now),
    trash,
    history,
    where: (id) => ({ location: `${store.location} (session ${id})` }),
    projectAt: async (path) => {
      // The model knows no files: a path as given, resolved (a store with its own `projectAt` follows links).
      const wanted = resolve(path);
      return (await store.projects()).find((p) => p.path === wanted);
    },
  };
}

/** The generic search: each listed session read lock-free through the model's interpreter. */
async function searchAnyStore(
  store: SessionStore,
  searchRows: SearchRows,
  query: string,
  projects: readonly ProjectInfo[],
  options: { limit?: number },
  now: () => Date,
): Promise<SearchResults> {
  const read = async (row: IndexRow) => {
    const source: SessionSource = { inspectLock: () => store.inspectLock(row.id), load: (o) => store.load(row.id, o) };
    // Unreadable (damaged beyond salvage, a newer build's): left out, as every store's search does.
    const found = await interpreter.read(source, row.id, row.project, { now: now(), stable: true }).catch(() => undefined);
    return found?.reading.snapshot;
  };
  return searchRows(query, await store.list(projects), read, options.limit);
}
