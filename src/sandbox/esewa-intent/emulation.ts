/**
 * The intent service's emulation as the sandbox runs it: its bookings and rules (service.ts), the
 * scenario player, the signed callbacks and their dispatcher, its routes on both origins and its
 * `/sandbox/` controls. `startSandbox` builds it once, beside ePay's ledger and Khalti's payments, and
 * keeps what it saves in the state file.
 */
import { createSignature, SIGNED_FIELDS } from '../../protocol/signature.js';
import type { Chaos } from '../chaos.js';
import type { SandboxClock } from '../clock.js';
import type { AdminRoutes } from '../admin.js';
import { SandboxOptionError } from '../errors.js';
import type { ProviderRoutes } from '../http.js';
import { createIntentAdminRoutes } from './admin.js';
import { CallbackDispatcher, type RetryPolicy } from './callbacks.js';
import { INTENT_SANDBOX_DEFAULTS, type IntentSandbox, type IntentSandboxOptions, type IntentState } from './options.js';
import { ScenarioPlayer } from './player.js';
import type { Profile } from './profiles.js';
import { createIntentRoutes } from './routes.js';
import { findScenario } from './scenarios.js';
import { SandboxService, type SandboxBooking } from './service.js';

/** What the emulation is built from: the sandbox's options, resolved, and its shared parts. */
export interface IntentEmulationOptions {
  accessKey: string;
  productCodes: string[];
  bookingTtlMs: number;
  retry: RetryPolicy;
  strict: boolean;
  profile: Profile;
  clock: SandboxClock;
  chaos?: Chaos;
  log: (line: string) => void;
  /** The links origin's address, known once its server listens. */
  linksUrl: () => string;
  /** Called after a booking or a sticky scenario changed (the state file is written). */
  onChange: () => void;
  /** Whether a booking's callback is sent (the sandbox's `sendCallback` option). */
  sendCallback?: (booking: SandboxBooking) => boolean;
  /** The bookings and sticky scenarios a state file kept. */
  saved?: IntentState;
}

/** The running emulation. */
export interface IntentEmulation {
  service: SandboxService;
  dispatcher: CallbackDispatcher;
  /** Logs a booking's new status and plays what its scenario does next (its callback among it). */
  onStatusChange(booking: SandboxBooking, notify: boolean): void;
  routes: { service: ProviderRoutes; links: ProviderRoutes };
  admin: AdminRoutes;
  /** What the state file keeps of it. */
  snapshot(): { bookings: SandboxBooking[]; sticky: Record<string, string> };
  /** Its part of the sandbox's handle: bookings, callbacks, revert, sticky scenarios. */
  controls: Omit<IntentSandbox, 'linksUrl' | 'webPaymentUrl'>;
}

/** Refuses, with a {@link SandboxOptionError} naming it, an option of the intent service the sandbox cannot start with. */
export function checkIntentOptions(options: IntentSandboxOptions & { accessKey?: string; productCode?: string | string[] }): void {
  if (options.accessKey !== undefined && (typeof options.accessKey !== 'string' || options.accessKey.length === 0)) {
    throw new SandboxOptionError('accessKey must be a non-empty string.');
  }
  const codes = options.productCode === undefined ? [] : ([] as string[]).concat(options.productCode);
  if (options.productCode !== undefined && codes.length === 0) throw new SandboxOptionError('productCode lists no product code.');
  for (const code of codes) {
    if (typeof code !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(code)) {
      throw new SandboxOptionError(`productCode must be 1 to 64 letters, digits, "-" or "_"; got "${String(code)}".`);
    }
  }
  if (options.bookingTtlMs !== undefined && !(Number.isFinite(options.bookingTtlMs) && options.bookingTtlMs > 0)) {
    throw new SandboxOptionError(`bookingTtlMs must be a positive number; got ${options.bookingTtlMs}.`);
  }
  const retry = options.callbackRetry;
  if (retry !== undefined) {
    if (!Number.isInteger(retry.attempts) || retry.attempts < 1) {
      throw new SandboxOptionError(`callbackRetry.attempts must be an integer of at least 1; got ${retry.attempts}.`);
    }
    if (!Number.isFinite(retry.baseDelayMs) || retry.baseDelayMs < 0) {
      throw new SandboxOptionError(`callbackRetry.baseDelayMs must be a number of at least 0; got ${retry.baseDelayMs}.`);
    }
  }
}

/** How the sandbox sends a booking's callback: `notify` schedules it, `signed` waits for the signatures under way. */
interface Notifier {
  notify(booking: SandboxBooking, send?: { delayMs?: number; drop?: number }): void;
  signed(): Promise<void>;
}

/**
 * The callback sender: honours `properties.sandbox_callback` and the `sendCallback` option, signs the
 * payload as the service does, and hands it to the dispatcher (which retries on the clock).
 */
function createNotifier(options: Pick<IntentEmulationOptions, 'sendCallback'>, accessKey: string, retry: RetryPolicy, dispatcher: CallbackDispatcher, log: (line: string) => void): Notifier {
  let pendingSignatures = 0;
  const signatureWaiters: Array<() => void> = [];
  const notify = (booking: SandboxBooking, send: { delayMs?: number; drop?: number } = {}): void => {
    const mode = booking.properties['sandbox_callback'];
    if (mode === 'never') {
      log(`callback ${booking.booking_id}: not sent (properties.sandbox_callback = "never")`);
      return;
    }
    if (options.sendCallback && !options.sendCallback(booking)) {
      log(`callback ${booking.booking_id}: not sent (held back by the sendCallback option)`);
      return;
    }
    const payload: Record<string, string | number> = {
      product_code: booking.product_code,
      amount: booking.amount,
      reference_code: booking.reference_code,
      correlation_id: booking.correlation_id,
      status: booking.status,
      signed_field_names: SIGNED_FIELDS.callback,
    };
    const delay = (mode === 'delay' ? retry.baseDelayMs * 4 : 0) + (send.delayMs ?? 0);
    // The signature is computed before scheduling; send() takes the finished payload.
    pendingSignatures++;
    createSignature(payload, SIGNED_FIELDS.callback, accessKey)
      .then((signature) =>
        dispatcher.send(booking.booking_id, booking.callback_url, { ...payload, signature }, {
          delayMs: delay,
          ...(send.drop ? { drop: send.drop } : {}),
          ...(booking.scenario ? { scenario: booking.scenario } : {}),
        }),
      )
      .catch((error: unknown) => log(`callback ${booking.booking_id}: could not sign: ${String(error)}`))
      .finally(() => {
        pendingSignatures--;
        if (pendingSignatures === 0) for (const resolve of signatureWaiters.splice(0)) resolve();
      });
  };
  const signed = () => (pendingSignatures > 0 ? new Promise<void>((resolve) => signatureWaiters.push(resolve)) : Promise.resolve());
  return { notify, signed };
}

/** Builds the intent service's emulation on the sandbox's clock; its callbacks are signed before the clock settles. */
export function createIntentEmulation(o: IntentEmulationOptions): IntentEmulation {
  const { accessKey, productCodes, clock, chaos, log } = o;
  // Chaos keys a callback by its booking's transaction_uuid, the merchant's own id.
  const dispatcher = new CallbackDispatcher({ ...o.retry, clock, log, ...(chaos ? { chaos } : {}), subjectOf: (id) => service.getBooking(id)?.transaction_uuid });
  const service: SandboxService = new SandboxService({
    accessKey,
    productCodes,
    bookingTtlMs: o.bookingTtlMs,
    now: () => clock.now(),
    linksUrl: o.linksUrl,
    strict: o.strict,
    onChange: o.onChange,
    rules: o.profile.rules,
    onMerchantCancel: (booking) => player.merchantCancelled(booking),
  });
  if (o.saved) {
    service.restore(o.saved.bookings);
    for (const [code, id] of Object.entries(o.saved.sticky ?? {})) service.setStickyScenario(code, findScenario(id));
  }
  const notifier = createNotifier(o, accessKey, o.retry, dispatcher, log);
  clock.settle = notifier.signed;
  const onStatusChange = (booking: SandboxBooking, shouldNotify: boolean): void => {
    log(`booking ${booking.booking_id} -> ${booking.status}${booking.scenario ? ` [${booking.scenario}]` : ''}`);
    player.statusChanged(booking, shouldNotify);
  };
  const player = new ScenarioPlayer({ service, clock, notify: notifier.notify, onStatusChange, log });
  const whenCallbacksSettled = async () => {
    await notifier.signed();
    await dispatcher.whenSettled();
  };
  return {
    service,
    dispatcher,
    onStatusChange,
    routes: createIntentRoutes({ service, accessKey, log, onStatusChange, linksRedirector: o.profile.linksRedirector }),
    admin: createIntentAdminRoutes({ service, dispatcher, productCodes, log, onChange: o.onChange }),
    snapshot: () => ({ bookings: service.snapshot(), sticky: service.stickyScenarios() }),
    controls: {
      getBooking: (bookingId) => service.getBooking(bookingId),
      listBookings: () => service.listBookings(),
      callbackAttempts: () => dispatcher.attempts(),
      callbackDeliveries: (filter) => dispatcher.deliveries(filter),
      whenCallbacksSettled,
      revert: (bookingId) => {
        const result = service.revert(bookingId);
        if (!result.ok) {
          throw new SandboxOptionError(
            result.reason === 'unknown_booking'
              ? `No booking "${bookingId}".`
              : `Only a SUCCESS booking can be reverted; "${bookingId}" is ${result.booking?.status}.`,
          );
        }
        onStatusChange(result.booking, result.notify);
        return result.booking;
      },
      setScenario: (productCode, id) => {
        if (!productCodes.includes(productCode)) throw new SandboxOptionError(`"${productCode}" is not one of this sandbox's product codes.`);
        const scenario = id === null ? undefined : findScenario(id);
        if (id !== null && !scenario) throw new SandboxOptionError(`No scenario "${id}" (WPS-001 ...).`);
        service.setStickyScenario(productCode, scenario);
        o.onChange();
      },
    },
  };
}

/** The emulation's options that the sandbox's options give, with their defaults. */
type FromSandboxOptions = 'bookingTtlMs' | 'retry' | 'strict' | 'sendCallback';

/** Builds the emulation from the sandbox's options (their intent part, defaults applied) and its shared parts. */
export function startIntentEmulation(options: IntentSandboxOptions, shared: Omit<IntentEmulationOptions, FromSandboxOptions>): IntentEmulation {
  return createIntentEmulation({
    ...shared,
    bookingTtlMs: options.bookingTtlMs ?? INTENT_SANDBOX_DEFAULTS.bookingTtlMs,
    retry: options.callbackRetry ?? INTENT_SANDBOX_DEFAULTS.callbackRetry,
    strict: options.strict ?? false,
    ...(options.sendCallback ? { sendCallback: options.sendCallback } : {}),
  });
}
