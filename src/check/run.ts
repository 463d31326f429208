/**
 * The conformance checker: proves a running book proxy, in any language, from outside, the way the
 * element and the payment service use it. It starts the sandbox of the service on a given port (the
 * proxy under test points its service URL there, with the sandbox's default access key and product
 * code), runs each clause of `CLAUSES` on fresh orders, pays bookings itself through the sandbox's
 * wallet page, and learns the proxy's callback URL from the bookings the proxy makes.
 */
import { startSandbox } from '../sandbox/index.js';
import { clausesFor, type ClauseId } from './clauses.js';
import { EPAY_BODIES } from './epay/clauses.js';
import { INTENT_BODIES } from './esewa-intent/bodies.js';
import { KHALTI_BODIES } from './khalti/clauses.js';
import * as transport from './clauses-transport.js';
import { noteServiceLine, willSend } from './esewa-intent/steps.js';
import { ClauseFailure, ClauseSkipped, Steps, type ClauseBody } from './steps.js';
import { printable } from './exchange.js';
import type { CheckOptions, CheckReport, ClauseResult } from './options.js';

export type { CheckOptions, ClauseResult, CheckReport } from './options.js';


/** Checks options and throws a `TypeError` naming the first bad one. */
export function checkOptions(options: CheckOptions): void {
  let url: URL;
  try {
    url = new URL(options.endpoint);
  } catch {
    throw new TypeError(`--endpoint must be an absolute http(s) URL; got "${options.endpoint}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`--endpoint must be an http(s) URL; got "${options.endpoint}".`);
  if (!Number.isInteger(options.sandboxPort) || options.sandboxPort < 1 || options.sandboxPort > 65535) {
    throw new TypeError(`--sandbox-port must be a whole number from 1 to 65535; got ${options.sandboxPort}.`);
  }
  if (typeof options.orderPrefix !== 'string' || !/^[A-Za-z0-9_.:-]{1,32}$/.test(options.orderPrefix)) {
    throw new TypeError(`--order-prefix must be 1 to 32 letters, digits, "-", "_", "." or ":"; got "${options.orderPrefix}".`);
  }
  for (const origin of options.callbackOrigins ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== origin.replace(/\/+$/, '')) {
      throw new TypeError(`--callback-origin must be an origin such as https://shop.example; got "${origin}".`);
    }
  }
  if (options.reconcile === undefined || !(options.reconcile === false || typeof options.reconcile === 'function' || (typeof options.reconcile === 'string' && options.reconcile.trim() !== ''))) {
    throw new TypeError(
      `reconcile must be the proxy's reconciliation (--reconcile-command), or false (--no-reconcile) for a backend that has none; got ${options.reconcile === undefined ? 'none' : JSON.stringify(options.reconcile)}.`,
    );
  }
  if (options.provider !== undefined && options.provider !== 'intent' && options.provider !== 'epay' && options.provider !== 'khalti') {
    throw new TypeError(`--provider must be "intent", "epay" or "khalti"; got "${String(options.provider)}".`);
  }
  if (options.requestTimeoutMs !== undefined && !(Number.isInteger(options.requestTimeoutMs) && options.requestTimeoutMs >= 100)) {
    throw new TypeError(`requestTimeoutMs must be a whole number of at least 100; got ${options.requestTimeoutMs}.`);
  }
  const cents = options.amount * 100;
  if (!(typeof options.amount === 'number' && options.amount > 0 && options.amount <= 999_999_999.99 && Math.abs(Math.round(cents) - cents) < 1e-6)) {
    throw new TypeError(`--amount must be a positive amount with at most two decimals; got ${options.amount}.`);
  }
}

/** Hosts that are this machine or a private network's: a check there harms no shop's customers. */
function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || /\.(local|test|internal|lan|home\.arpa)$/.test(host)) return true;
  if (host === '::1' || host.startsWith('fc') || host.startsWith('fd') || host.startsWith('fe80:')) return true;
  const ip = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (!ip) return false;
  const [a, b] = [Number(ip[1]), Number(ip[2])];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}

/**
 * A warning when `endpoint` looks like production (https on a public host): the check instance sells
 * every order of the test prefix, a rule that must never run where real shoppers pay.
 */
export function productionWarning(endpoint: string): string | undefined {
  const url = new URL(endpoint);
  if (url.protocol !== 'https:' || isPrivateHost(url.hostname)) return undefined;
  return (
    `warning: ${url.origin} looks like production (https on a public host). Run the checker against a check instance ` +
    '(its own port, its own database, a sandbox service URL): the rule that sells every order of --order-prefix must never run in production.'
  );
}

/** The risk a run without reconciliation (`reconcile: false`, `--no-reconcile`) names in its report. */
export const NO_RECONCILE_WARNING =
  'warning: no reconciliation (--no-reconcile): a payment whose shopper never came back (the tab closed, its callback lost; ePay sends none) stays unsettled, ' +
  'the order unpaid though the money was taken, and a booking left open is never cancelled; the spec asks for a status check when no answer came within five minutes.';

/** The run's warnings: a production-looking endpoint, a backend without reconciliation. */
export function runWarnings(options: Pick<CheckOptions, 'endpoint' | 'reconcile'>): string[] {
  const production = productionWarning(options.endpoint);
  return [...(production ? [production] : []), ...(options.reconcile === false ? [NO_RECONCILE_WARNING] : [])];
}

/**
 * Runs every clause against the proxy at `options.endpoint` and returns the verdicts. Starts and stops
 * the sandbox itself; never throws for a proxy's fault (that is a failed clause).
 */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  checkOptions(options);
  const steps = new Steps(options);
  steps.sandbox = await startSandbox({
    port: options.sandboxPort,
    linksPort: options.linksPort ?? 0,
    // Short retries: a proxy that refuses the first delivery is seen within a second.
    callbackRetry: { attempts: 3, baseDelayMs: 200 },
    // Callbacks go only where the checker may send them, and never for a booking it drops on purpose.
    sendCallback: (booking) => willSend(steps, booking),
    log: (line) => noteServiceLine(steps, line),
  });
  const verdicts: ClauseResult[] = [];
  try {
    for (const clause of clausesFor(options.provider)) {
      const verdict = await judge(steps, clause.id as ClauseId, clause.title, clause.section, options.clauseTimeoutMs ?? 60_000);
      verdicts.push(verdict);
      if (!verdict.ok && !verdict.skipped) steps.failedClauses.add(clause.id);
      options.onClause?.(verdict);
    }
  } finally {
    await steps.sandbox.close();
  }
  const passed = verdicts.filter((r) => r.ok).length;
  const skipped = verdicts.filter((r) => r.skipped).length;
  return { clauses: verdicts, passed, failed: verdicts.length - passed - skipped, skipped, warnings: runWarnings(options) };
}

/**
 * What each clause does (each provider's from its folder, the transport's here); a clause passes when
 * it returns (a note, maybe) and fails when it throws.
 */
const BODIES: Record<ClauseId, ClauseBody> = {
  ...INTENT_BODIES,
  ...EPAY_BODIES,
  ...KHALTI_BODIES,
  'method-not-allowed': transport.methodNotAllowed,
  'payload-too-large': transport.payloadTooLarge,
  'unsupported-media-type': transport.unsupportedMediaType,
  'failure-not-2xx': transport.failureNot2xx,
  'no-redirect': transport.noRedirect,
  'content-type-json': transport.contentTypeJson,
  'no-store': transport.noStore,
  'nosniff': transport.nosniff,
};

/** Runs one clause within its time limit and turns what happened into its verdict. */
async function judge(steps: Steps, id: ClauseId, title: string, section: string, timeoutMs: number): Promise<ClauseResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const givenUp = steps.http.givenUp;
  // An endpoint that sent endless or endlessly slow answers is not asked again: the run ends in seconds.
  if (givenUp !== undefined) return { id, title, ok: false, detail: printable(`not run: the endpoint was given up (${givenUp}); breaks: ${section}`) };
  steps.driven = [];
  // The scenarios the clause drove, in its verdict: the sandbox's log names the same IDs.
  const named = (verdict: ClauseResult): ClauseResult => (steps.driven.length > 0 ? { ...verdict, scenarios: [...steps.driven] } : verdict);
  try {
    const note = await Promise.race([
      BODIES[id](steps),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ClauseFailure(`did not finish within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return named({ id, title, ok: true, detail: printable(note ?? '') });
  } catch (error) {
    if (error instanceof ClauseSkipped) return named({ id, title, ok: false, skipped: true, detail: printable(`skipped: ${error.message}`) });
    const message = error instanceof ClauseFailure ? error.message : `the checker could not run it: ${error instanceof Error ? error.message : String(error)}`;
    return named({ id, title, ok: false, detail: printable(`${message}; breaks: ${section}`) });
  } finally {
    clearTimeout(timer);
  }
}
