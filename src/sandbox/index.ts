/**
 * A local, faithful emulator of the intent payment service: the three API operations, the wallet page
 * behind the deeplinks (on a separate links origin), the provider's web payment page, and the signed
 * payment-status callback with retries. Real HTTP on loopback, real signatures.
 *
 * ```ts
 * const sandbox = await startSandbox({ productCode: 'SHOP01' });
 * // POST `${sandbox.baseUrl}/api/client/intent/payment/book` ...
 * await sandbox.close();
 * ```
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createAdminRoutes } from './admin.js';
import { Chaos, type ChaosOptions } from './chaos.js';
import { parseDuration, SandboxClock } from './clock.js';
import { createLinksHandler, createServiceHandler, type HttpContext } from './http.js';
import { checkIntentOptions, startIntentEmulation } from './esewa-intent/emulation.js';
import { SandboxOptionError } from './errors.js';
import { INTENT_SANDBOX_DEFAULTS, type IntentSandbox, type IntentSandboxOptions, type IntentState } from './esewa-intent/options.js';
import { PROFILES } from './esewa-intent/profiles.js';
import { createEpayAdminRoutes } from './epay/admin.js';
import { EpayLedger, type EpayTransaction } from './epay/ledger.js';
import { EPAY_SESSION_IDLE_MS } from './epay/rules.js';
import { createEpayRoutes } from './epay/routes.js';
import { createKhaltiEmulation } from './khalti/index.js';

// The types of the options' and the handle's members are reached through `SandboxOptions` and `Sandbox`;
// the bookings a test reads are named, since a test writes that type.
export { SCENARIOS } from './esewa-intent/scenarios.js';
export type { SandboxBooking } from './esewa-intent/service.js';

/** Options of `startSandbox`; the intent service's own (bookings, callbacks, profile) are in src/sandbox/esewa-intent/options.ts. */
export interface SandboxOptions extends IntentSandboxOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port of the API and the web payment page; default 0 (a free port). */
  port?: number;
  /** The access key signatures are made with; default `sandbox-access-key`. */
  accessKey?: string;
  /** Known merchants' product codes; default `SANDBOX`. */
  productCode?: string | string[];
  /** Clock in epoch milliseconds, for expiry tests; default `Date.now`. */
  now?: () => number;
  /** Receives one line per request and per callback attempt; default: silent. */
  log?: (line: string) => void;
  /**
   * A JSON file that keeps the bookings and the two ports across restarts (the playground's data
   * folder uses it): read at start, written after every new booking and status change. A restarted
   * sandbox listens on the ports it had, unless `port`/`linksPort` say otherwise, so links and pages
   * that shoppers still hold keep working. Callbacks still being retried at a stop are not resumed:
   * the merchant's status check settles those payments. Default: none (everything in memory).
   */
  stateFile?: string;
  /**
   * Seeded faults on the API, the pages and the callbacks (never on the `/sandbox/` controls), e.g.
   * `{ timeouts: 0.16, errors: 0.05, latencyMs: 200, seed: 42 }`. Default: none.
   */
  chaos?: ChaosOptions;
  /** Idle lifetime of an unfinished ePay v2 session before its status reads `NOT_FOUND`; default 5 minutes. */
  epaySessionIdleMs?: number;
  /** Seconds a Khalti payment link lives (`expires_in`); default 1800, Khalti's sample. */
  khaltiExpiresIn?: number;
}

/** What the state file holds: the intent service's bookings and sticky scenarios, and the rest. */
interface SandboxState extends IntentState {
  version: 1;
  port?: number;
  linksPort?: number;
  /** How far the steered clock was ahead of real time. */
  clockOffsetMs?: number;
  /** ePay v2 transactions. */
  epay?: EpayTransaction[];
}

function readState(file: string): SandboxState | undefined {
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as SandboxState;
  if (state?.version !== 1 || !Array.isArray(state.bookings)) throw new SandboxOptionError(`${file} is not a sandbox state file (version 1).`);
  return state;
}

/** Written whole to a temporary file and renamed over the old one, so a stop mid-write leaves the last state. */
function writeState(file: string, state: SandboxState): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}

/** A running sandbox; the intent service's members (bookings, callbacks, scenarios) are in src/sandbox/esewa-intent/options.ts. */
export interface Sandbox extends IntentSandbox {
  /** `{base_url}` of the spec, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /**
   * The element's `allowed-hosts` value for this sandbox, e.g. `127.0.0.1:4010 127.0.0.1:4011`: the
   * web payment page is on the service origin, the deeplinks on the links origin, so both are needed.
   */
  allowedHosts: string;
  accessKey: string;
  productCodes: string[];
  /**
   * The sandbox's clock: `now()` in epoch milliseconds; `advance('15m')` or `set(time)` move it
   * forward and resolve once everything due on the way (expiry, scenario steps, callback retries) ran.
   */
  clock: {
    now(): number;
    advance(by: string | number): Promise<number>;
    set(to: string | number | Date): Promise<number>;
  };
  /** Stops both servers and every pending callback. */
  close(): Promise<void>;
}

/** Defaults, shared with the command line. */
export const SANDBOX_DEFAULTS = {
  host: '127.0.0.1',
  accessKey: 'sandbox-access-key',
  productCode: 'SANDBOX',
  ...INTENT_SANDBOX_DEFAULTS,
  cliPort: 4010,
} as const;

export { SandboxOptionError } from './errors.js';

function checkOptions(options: SandboxOptions): void {
  const port = (name: string, value: number | undefined) => {
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > 65535)) {
      throw new SandboxOptionError(`${name} must be an integer from 0 to 65535; got ${value}.`);
    }
  };
  port('port', options.port);
  port('linksPort', options.linksPort);
  checkIntentOptions(options);
  if (options.epaySessionIdleMs !== undefined && !(Number.isFinite(options.epaySessionIdleMs) && options.epaySessionIdleMs > 0)) {
    throw new SandboxOptionError(`epaySessionIdleMs must be a positive number; got ${options.epaySessionIdleMs}.`);
  }
}

function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
      resolve(`http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Parses a time for `clock.set`: epoch milliseconds, a Date, or an ISO string. */
function timeOf(to: string | number | Date): number {
  const at = to instanceof Date ? to.getTime() : typeof to === 'number' ? to : Date.parse(to);
  if (Number.isNaN(at)) throw new SandboxOptionError(`clock.set needs a time; got "${String(to)}".`);
  return at;
}

/** The service and links servers, listening; on a failure both are closed and the clock stopped. */
async function listenBoth(ctx: HttpContext, ports: { port: number; linksPort: number }, host: string, clock: SandboxClock) {
  const serviceServer = createServer(createServiceHandler(ctx));
  const linksServer = createServer(createLinksHandler(ctx));
  try {
    const baseUrl = await listen(serviceServer, ports.port, host);
    const linksUrl = await listen(linksServer, ports.linksPort, host);
    return { baseUrl, linksUrl, close: () => Promise.all([closeServer(serviceServer), closeServer(linksServer)]) };
  } catch (error) {
    clock.stop();
    await Promise.all([closeServer(serviceServer), closeServer(linksServer)]);
    throw error;
  }
}

/** The sandbox's own controls beyond its addresses: the clock, moved and saved. */
function clockControls(clock: SandboxClock, save: () => void): Sandbox['clock'] {
  return {
    now: () => clock.now(),
    advance: async (by) => {
      const at = await clock.advance(typeof by === 'number' ? by : parseDuration(by));
      save();
      return at;
    },
    set: async (to) => {
      const at = await clock.set(timeOf(to));
      save();
      return at;
    },
  };
}

/** Starts the sandbox: two servers on loopback (service and links origins). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  const profile = PROFILES[options.profile ?? 'spec'];
  const host = options.host ?? SANDBOX_DEFAULTS.host;
  const accessKey = options.accessKey ?? SANDBOX_DEFAULTS.accessKey;
  const productCodes =
    options.productCode === undefined ? [profile.productCode ?? SANDBOX_DEFAULTS.productCode] : ([] as string[]).concat(options.productCode);
  const log = options.log ?? (() => undefined);
  const saved = options.stateFile === undefined ? undefined : readState(options.stateFile);
  const clock = new SandboxClock(options.now ?? Date.now, saved?.clockOffsetMs ?? 0);
  const chaos = options.chaos === undefined ? undefined : new Chaos(options.chaos, log);

  let ports: { port?: number; linksPort?: number } = {};
  const save = () => {
    if (options.stateFile === undefined) return;
    const state: SandboxState = { version: 1, ...ports, ...intent.snapshot(), epay: epay.snapshot(), clockOffsetMs: clock.offsetMs() };
    writeState(options.stateFile, state);
  };
  let linksUrl = '';
  const intent = startIntentEmulation(options, {
    accessKey,
    productCodes,
    profile,
    clock,
    ...(chaos ? { chaos } : {}),
    log,
    linksUrl: () => linksUrl,
    onChange: save,
    ...(saved ? { saved } : {}),
  });

  const epay = new EpayLedger({ now: () => clock.now(), idleMs: options.epaySessionIdleMs ?? EPAY_SESSION_IDLE_MS, onChange: save });
  if (saved?.epay) epay.restore(saved.epay);
  const ctx: HttpContext = {
    log,
    ...(chaos ? { chaos } : {}),
    providers: [
      intent.routes.service,
      createEpayRoutes({ ledger: epay, accessKey, productCodes, log }),
      createKhaltiEmulation({ now: () => clock.now(), accessKey, baseUrl: () => baseUrl, log, ...(options.khaltiExpiresIn === undefined ? {} : { expiresIn: options.khaltiExpiresIn }) }),
    ],
    links: intent.routes.links,
    admin: createAdminRoutes({ clock, log, onChange: save, providers: [intent.admin, createEpayAdminRoutes(epay, log)] }),
  };
  const servers = await listenBoth(ctx, { port: options.port ?? saved?.port ?? 0, linksPort: options.linksPort ?? saved?.linksPort ?? 0 }, host, clock);
  const baseUrl = servers.baseUrl;
  linksUrl = servers.linksUrl;
  ports = { port: Number(new URL(baseUrl).port), linksPort: Number(new URL(linksUrl).port) };
  save();
  if (chaos) log(`chaos: ${chaos.describe()}`);
  if (profile.name !== 'spec') log(`profile: ${profile.name}`);

  return {
    baseUrl,
    linksUrl,
    webPaymentUrl: `${baseUrl}/web/pay`,
    allowedHosts: `${new URL(baseUrl).host} ${new URL(linksUrl).host}`,
    accessKey,
    productCodes: [...productCodes],
    ...intent.controls,
    clock: clockControls(clock, save),
    close: async () => {
      clock.stop();
      await intent.dispatcher.close();
      await servers.close();
    },
  };
}
