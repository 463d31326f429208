/**
 * The element's attempt id on the server: read from the `Wallet-Pay-Attempt` header of `/book` and
 * `/order`, only to name the attempt in the merchant's hooks. Nothing depends on it, so a missing or
 * malformed value is dropped, never refused.
 */
import { ATTEMPT_HEADER, ATTEMPT_PATTERN } from '../protocol/contract.js';

/** The request's attempt id, or `undefined` when it sent none or one that is not 1 to 64 of `[A-Za-z0-9_-]`. */
function attemptOf(request: Request): string | undefined {
  const value = request.headers.get(ATTEMPT_HEADER);
  return value !== null && ATTEMPT_PATTERN.test(value) ? value : undefined;
}

/** `{ attempt }` for a request that named one, `{}` otherwise: spread into a hook's context. */
export function attemptTag(request: Request): { attempt?: string } {
  const attempt = attemptOf(request);
  return attempt === undefined ? {} : { attempt };
}
