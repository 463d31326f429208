/**
 * What every provider's call fails with, {@link ServiceError}, and the capped read of a provider's
 * answer that each adapter uses. The handler's `provider-calls.ts` turns the error into the code the
 * browser sees; Web APIs only, so it runs in Node 20 and edge runtimes.
 */

/** How a call failed: the provider said no, it could not be used, or it did not answer in time. */
export type ServiceErrorKind = 'rejected' | 'unavailable' | 'timeout';

/** The call that failed: a provider's book, status (lookup), cancel or refund. */
export type ServiceOperation = 'book' | 'status' | 'cancel' | 'refund';

/** A failed call to a provider: every adapter fails with it. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  /** The provider's own code for a refusal (`IP-410`, `IP-400`, ...), else `IP-502` or `IP-504`. */
  readonly code: string;
  /** The HTTP status the provider answered with; undefined when no answer arrived. */
  readonly httpStatus: number | undefined;
  readonly kind: ServiceErrorKind;
  /** The endpoint that was called. */
  readonly operation: ServiceOperation;
  constructor(
    operation: ServiceOperation,
    kind: ServiceErrorKind,
    code: string,
    httpStatus: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.operation = operation;
    this.kind = kind;
    this.code = code;
    this.httpStatus = httpStatus;
  }
}

/** An answer past the client's cap. */
export class AnswerTooLarge extends Error {}

/**
 * The answer's text, read chunk by chunk up to `limit` bytes: past it the body is cancelled (the
 * connection let go) and {@link AnswerTooLarge} thrown, so an endless or huge answer costs at most the cap.
 * Read under the request's `signal`, a body that ends after it aborted is not taken as the answer: it
 * may be cut short (a response a merchant's `fetch` cloned ends empty on the abort, rather than
 * failing), so the signal's reason is thrown and the caller reports a timeout.
 */
export async function readCapped(response: Response, limit: number, signal?: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new AnswerTooLarge();
  }
  if (!response.body) {
    signal?.throwIfAborted();
    return '';
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge();
    }
    chunks.push(value);
  }
  signal?.throwIfAborted();
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
