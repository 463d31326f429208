/** Browser-side helpers for the scripted merchant proxy (test/support/proxy-middleware.mjs). */
import type { PageNavigator } from '../../src/core/navigator.js';

/** One scripted answer. */
export interface Step {
  status?: number;
  body?: unknown;
  raw?: string;
  /** A `Location` header (for a redirect). */
  location?: string;
  delay?: number;
  /** Held until the test calls the scenario's `release()` (a 504 after 10 s without it). */
  hold?: boolean;
  destroy?: boolean;
  /** The content type of `raw` (text/html when absent). */
  type?: string;
}

/** What the proxy received for one request. */
export interface Received {
  method: string;
  body: Record<string, unknown>;
  idempotencyKey: string | null;
  /** The `Wallet-Pay-Attempt` header: the funnel's attempt id. */
  attempt: string | null;
  contentType: string | null;
}

/** The script of one scenario. */
export interface Script {
  /** Keep what the proxy received so far (swap answers mid-test). */
  keepReceived?: boolean;
  book?: Step[];
  status?: Step[];
  cancel?: Step[];
  /** Answers to `POST {endpoint}/order` (unscripted: a 404, as from a server without the route). */
  order?: Step[];
  /** Answers to `GET {endpoint}/chunk.js`, a module for the chunk loader. */
  chunk?: Step[];
}

/** A scenario on the proxy: its endpoint and what it received. */
export interface Scenario {
  endpoint: string;
  received(): Promise<Record<'book' | 'status' | 'cancel' | 'order', Received[]> & { chunk?: Received[] }>;
  script(script: Script): Promise<void>;
  /** Lets the answers of `hold` steps go: those waiting now and any later one. */
  release(): Promise<void>;
}

// The three device profiles run at the same time against one server: ids must not collide.
const RUN = crypto.randomUUID().slice(0, 8);
let counter = 0;

/** Creates a fresh scenario with its script. */
export async function scenario(script: Script): Promise<Scenario> {
  const endpoint = `/test-proxy/${RUN}-${++counter}`;
  const load = async (next: Script) => {
    const response = await fetch(`${endpoint}/__script`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(next),
    });
    if (!response.ok) throw new Error(`scripting the proxy failed: HTTP ${response.status}`);
  };
  await load(script);
  return {
    endpoint,
    script: load,
    async received() {
      const response = await fetch(`${endpoint}/__received`);
      return response.json();
    },
    async release() {
      const response = await fetch(`${endpoint}/__release`, { method: 'POST' });
      if (!response.ok) throw new Error(`releasing the proxy's held answers failed: HTTP ${response.status}`);
    },
  };
}

/** Answers in the contract's envelopes. */
export const answer = {
  bookApp: (bookingId: string, deeplink = `https://links.wallet.test/pay/${bookingId}`): Step => ({
    body: { code: 'IP-201', message: 'Booked', data: { booking_id: bookingId, correlation_id: `c-${bookingId}`, channel: 'app', deeplink } },
  }),
  bookWeb: (bookingId: string, webPayment: unknown): Step => ({
    body: { code: 'IP-201', message: 'Booked', data: { booking_id: bookingId, correlation_id: `c-${bookingId}`, channel: 'web', web_payment: webPayment } },
  }),
  status: (bookingId: string, status: string): Step => ({
    body: { code: 'IP-201', message: 'Status', data: { booking_id: bookingId, correlation_id: `c-${bookingId}`, status } },
  }),
  cancelled: (bookingId: string): Step => ({
    body: { code: 'IP-210', message: 'Cancelled', data: { booking_id: bookingId, status: 'CANCELED' } },
  }),
  failure: (httpStatus: number, code: string, message = 'refused'): Step => ({
    status: httpStatus,
    body: { code, error_message: message },
  }),
};

/** A navigation the element asked for. */
export interface Navigation {
  kind: 'assign' | 'postForm' | 'openApp';
  url: string;
  fields?: Record<string, string>;
}

/** A navigator that records instead of leaving the test page. */
export function recordingNavigator(): PageNavigator & { calls: Navigation[] } {
  const calls: Navigation[] = [];
  return {
    calls,
    assign: (url) => void calls.push({ kind: 'assign', url }),
    postForm: (url, fields) => void calls.push({ kind: 'postForm', url, fields }),
    openApp: (url) => void calls.push({ kind: 'openApp', url }),
  };
}
