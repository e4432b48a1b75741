/**
 * `load`, called the first time only: later calls get the first call's promise. A failed load
 * is forgotten, so the next call tries again (a module that failed to load is not cached by Node
 * either).
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}
