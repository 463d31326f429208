/**
 * The sandbox's emulation of Khalti KPG-2 (ePayment) on the service origin: what `startSandbox`
 * mounts. Merchant code written for Khalti points its base URL at the sandbox and authenticates with
 * `Authorization: Key <the sandbox's access key>`.
 */
import { KhaltiPayments } from './payments.js';
import { createKhaltiRoutes, KHALTI_PAY_PATH } from './routes.js';

export { KHALTI_SCENARIOS, type KhaltiScenario } from './scenarios.js';
export type { KhaltiPayment } from './payments.js';

/** Khalti's sample `expires_in`: 30 minutes. */
export const KHALTI_DEFAULT_EXPIRES_IN_S = 1800;

/** What the emulation needs from the sandbox. */
export interface KhaltiEmulationOptions {
  /** The sandbox's clock, epoch milliseconds. */
  now: () => number;
  /** The key `Authorization: Key …` must carry. */
  accessKey: string;
  /** The service origin, known once it listens; `payment_url` points there. */
  baseUrl: () => string;
  log: (line: string) => void;
  /** Seconds a payment link lives; default 1800. */
  expiresIn?: number;
}

/** The routes of the emulation, for the service origin's handler; a bad `expiresIn` is a RangeError. */
export function createKhaltiEmulation(options: KhaltiEmulationOptions) {
  const expiresIn = options.expiresIn ?? KHALTI_DEFAULT_EXPIRES_IN_S;
  if (!Number.isInteger(expiresIn) || expiresIn < 1) throw new RangeError(`khaltiExpiresIn must be a whole number of seconds of at least 1; got ${expiresIn}.`);
  const payments = new KhaltiPayments({
    now: options.now,
    expiresIn,
    // Khalti's own is https://test-pay.khalti.com/?pidx=… (pay.khalti.com live).
    payUrl: (pidx) => `${options.baseUrl()}${KHALTI_PAY_PATH}?pidx=${encodeURIComponent(pidx)}`,
  });
  return createKhaltiRoutes({ payments, accessKey: options.accessKey, log: options.log });
}
