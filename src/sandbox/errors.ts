/**
 * The sandbox's refusal of what it is asked at start or through its handle: an option it cannot start
 * with, a booking it cannot revert, a scenario it does not have. Apart from index.ts so that each
 * provider's emulation throws the same class the entry exports.
 */

/** Thrown for an option the sandbox cannot start with, or a control it cannot carry out. */
export class SandboxOptionError extends Error {
  override name = 'SandboxOptionError';
}
