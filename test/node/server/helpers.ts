/**
 * Shared pieces of the server-kit tests: real servers on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import type { Sandbox } from '../../../src/sandbox/index.js';
import type { PaymentHandler, PaymentHandlerOptions } from '../../../src/server/handler.js';
import { freePort } from '../../../scripts/host.mjs';

/** HMAC-SHA256 in base64 with node:crypto: the independent reference for every signature check. */
export const nodeSign = (message: string, key: string): string =>
  createHmac('sha256', Buffer.from(key, 'utf8')).update(message, 'utf8').digest('base64');

/** A running node:http server. */
export interface Loopback {
  url: string;
  close(): Promise<void>;
}

/** Starts `listener` on a free port of 127.0.0.1. */
export async function listen(listener: RequestListener): Promise<Loopback> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Reads a node:http request body as text. */
export async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers with a fixed status, content type and body. */
export function answer(status: number, contentType: string, body: string): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    void bodyOf(request).then(() => {
      response.writeHead(status, { 'content-type': contentType });
      response.end(body);
    });
  };
}

/**
 * A merchant's `fetch` that logs each answer (reads a clone of it) and is slow to hand it back: only
 * once the caller's signal aborted, an answer taken after its time limit. Node's fetch ends a cloned
 * answer's body empty on the abort instead of failing it, so a reader must not take what it read as
 * the answer.
 */
export const lateCloningFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  await response.clone().text();
  const signal = init?.signal;
  if (!signal) throw new Error('lateCloningFetch needs a signal to wait for: the caller sets no time limit');
  if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  return response;
};

/** The URL of a free port (scripts/host.mjs), outside the ports the system hands out: nothing listens there. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/**
 * The handler options that point at `sandbox`: its URL, access key and product, and callback and
 * return URLs nothing answers (a test that needs them answered gives its own).
 */
export function onSandbox(sandbox: Sandbox): Pick<PaymentHandlerOptions, 'serviceUrl' | 'productCode' | 'accessKey' | 'callbackUrl' | 'redirectUrl'> {
  return {
    serviceUrl: sandbox.baseUrl,
    productCode: sandbox.productCodes[0]!,
    accessKey: sandbox.accessKey,
    callbackUrl: 'http://127.0.0.1:9/callback',
    redirectUrl: 'http://127.0.0.1:9/done',
  };
}

/** What a booking route's answer carries in `data` (a test with other routes names its own). */
export interface BookingData {
  booking_id: string;
  correlation_id: string;
  deeplink?: string;
  status?: string;
}

/** What the status and order routes' answers carry: the booking's, with its status and receipt. */
export interface ResultData extends Required<BookingData> {
  receipt: string;
}

/** A handler's answer to one route: its status, its Retry-After, and its JSON body. */
export interface RouteAnswer<Data = BookingData> {
  status: number;
  retryAfter: string | null;
  body: { code: string; error_message?: string; data?: Data };
}

/**
 * POSTs `body` to the handler's `route` (as JSON; a string is sent as it is, for a malformed body),
 * with an Idempotency-Key when `key` is given.
 */
export async function postRoute<Data = BookingData>(handler: PaymentHandler, route: string, body: unknown, key?: string): Promise<RouteAnswer<Data>> {
  const response = await handler(
    new Request(`http://merchant.test/api/pay/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as RouteAnswer<Data>['body'] };
}

export { payAtWallet } from '../../support/pay-at-wallet.js';
