/**
 * A time limit for a wait that has none of its own (an event awaited inside the page, a route that
 * should be hit, a server's ready signal): rejects with what was awaited once `ms` pass, so a test
 * fails with a message instead of hanging the run.
 */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Gave up waiting for ${what} after ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
