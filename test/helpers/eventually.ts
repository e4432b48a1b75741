/** Polls `fn` until it stops throwing (the other side of a kill -9 or a restart needs a moment to notice); rethrows after `timeoutMs`. */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
