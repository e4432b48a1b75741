/**
 * The library's optional peer dependencies (package.json `peerDependenciesMeta`): a program
 * installs one only for the part that needs it (`pg` for a PostgreSQL store, `@langchain/core`
 * for `chatkeep/langchain`), so that a library user installs a few small packages.
 * The CLI carries its own copies (scripts/bundle.mjs) and never misses one.
 */
import { MissingPackageError } from '../api/errors.js';

/** True when `err` says that `name` itself is not installed (not that something inside it failed to load). */
function isMissing(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === 'ERR_MODULE_NOT_FOUND' && typeof e.message === 'string' && e.message.includes(`package '${name}'`);
}

/** The module `load` imports from package `name`; undefined when that package is not installed. */
export async function importOptional<T>(name: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (err) {
    if (isMissing(err, name)) return undefined;
    throw err;
  }
}

/** The module `load` imports from package `name`; `MissingPackageError` naming what needs it when not installed. */
export async function importRequired<T>(name: string, neededBy: string, load: () => Promise<T>): Promise<T> {
  const loaded = await importOptional(name, load);
  if (loaded === undefined) throw new MissingPackageError(name, neededBy);
  return loaded;
}
