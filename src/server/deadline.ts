/**
 * A deadline on what the merchant plugs in (its order lookup, a custom store): the caller gets an answer
 * at the deadline, while the late call runs on unawaited, its failure swallowed.
 */

/** `call()`'s outcome, or `late()`'s error once `limitMs` passed; a call that throws at once rejects the same way. */
export async function withDeadline<T>(call: () => T | Promise<T>, limitMs: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), limitMs);
  });
  const running = Promise.resolve().then(call);
  running.catch(() => {});
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}
