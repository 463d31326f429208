/**
 * The one polling helper of the tests: asks `check` every `intervalMs` until it answers something
 * truthy, and fails naming `what` once `timeoutMs` pass. A test waits on a condition it cannot await
 * (a callback delivered in the background, a row written by another process) with this, never with a
 * loop of its own or a fixed sleep.
 */

/** How long to wait, how often to ask, and what is awaited (named in the failure). */
export interface PollOptions {
  /** Longest wait; default 10 s. */
  timeoutMs?: number;
  /** Pause between two checks; default 20 ms. */
  intervalMs?: number;
  /** What is awaited, in words: the failure reads "Gave up waiting for <what> after <timeoutMs> ms". */
  what: string;
}

/** A value `check` answers while the condition does not hold yet. */
type NotYet = false | null | undefined | 0 | '';

/**
 * Resolves with the first truthy answer of `check` (sync or async). Rejects when `timeoutMs` pass
 * first (a check that hangs included), with a message naming `options.what` and the last answer; an error thrown by `check` is a
 * failure at once, not a "not yet" (a broken check should not pass as a slow one).
 */
export async function pollUntil<T>(check: () => T | NotYet | Promise<T | NotYet>, options: PollOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  const gaveUp = (why: string) => new Error(`Gave up waiting for ${options.what} after ${timeoutMs} ms (${why})`);
  let last: unknown;
  for (;;) {
    last = await answerBefore(check, deadline, () => gaveUp('the check itself did not answer'));
    if (last) return last as T;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(0, deadline - Date.now()))));
  }
  throw gaveUp(`the check last answered ${JSON.stringify(last) ?? String(last)}`);
}

/** `check`'s answer, or the error of `late()` when it is not in by `deadline` (a check can hang too). */
async function answerBefore<T>(check: () => T | Promise<T>, deadline: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([Promise.resolve().then(check), limit]);
  } finally {
    clearTimeout(timer);
  }
}
