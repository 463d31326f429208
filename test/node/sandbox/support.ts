/**
 * What the sandbox's bench tests share: a merchant's callback receiver on loopback that records what
 * it gets and answers as told, signed requests made with node:crypto (an independent signer), the
 * shopper's confirm on the payment page, and the sandbox's controls.
 */
import { after, before } from 'node:test';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { createMemoryStore, createPaymentHandler } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/node.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { freePort, serve } from '../check/support.js';
import { pollUntil } from '../../support/poll.js';

/** One callback the receiver got. */
export interface Received {
  body: Record<string, unknown>;
  raw: string;
}

/** A callback receiver: records each callback, answers with `answer()` (default 200). */
export interface Receiver {
  url: string;
  received: Received[];
  answer: (received: Received) => number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver = { received: [] as Received[], answer: (() => 200) as (r: Received) => number } as Receiver;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const received = { raw, body: JSON.parse(raw || '{}') as Record<string, unknown> };
      receiver.received.push(received);
      res.writeHead(receiver.answer(received), { 'content-type': 'text/plain' });
      res.end('noted');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

const sign = (message: string, key: string) => createHmac('sha256', key).update(message).digest('base64');

/** What a signed book needs. */
export interface BookInput {
  key: string;
  product: string;
  amount?: number | string;
  uuid?: string;
  callbackUrl?: string;
  redirectUrl?: string;
  properties?: Record<string, string>;
  headers?: Record<string, string>;
}

/** A signed book request, as a merchant sends it; the amount is written as given. */
export async function book(baseUrl: string, input: BookInput): Promise<{ status: number; body: { code: string; data?: Record<string, string>; error_message?: string } }> {
  const amount = input.amount ?? 100;
  const uuid = input.uuid ?? `tx-${crypto.randomUUID()}`;
  const response = await fetch(`${baseUrl}/api/client/intent/payment/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...input.headers },
    body: JSON.stringify({
      product_code: input.product,
      amount,
      transaction_uuid: uuid,
      signed_field_names: 'product_code,amount,transaction_uuid',
      signature: sign(`product_code=${input.product},amount=${amount},transaction_uuid=${uuid}`, input.key),
      callback_url: input.callbackUrl ?? 'http://127.0.0.1:9/cb',
      redirect_url: input.redirectUrl ?? 'http://127.0.0.1:9/return',
      properties: input.properties ?? {},
    }),
  });
  return { status: response.status, body: await response.json() };
}

/** A signed status request. */
export async function status(baseUrl: string, key: string, product: string, bookingId: string, correlationId: string): Promise<Response> {
  return fetch(`${baseUrl}/api/client/intent/payment/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      booking_id: bookingId,
      product_code: product,
      correlation_id: correlationId,
      signed_field_names: 'booking_id,product_code,correlation_id',
      signature: sign(`booking_id=${bookingId},product_code=${product},correlation_id=${correlationId}`, key),
    }),
  });
}

/** A signed cancel request. */
export async function cancel(baseUrl: string, key: string, product: string, bookingId: string): Promise<Response> {
  return fetch(`${baseUrl}/api/client/intent/payment/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      booking_id: bookingId,
      product_code: product,
      signed_field_names: 'booking_id,product_code',
      signature: sign(`booking_id=${bookingId},product_code=${product}`, key),
    }),
  });
}

/** The shopper confirms on the web payment page (optionally picking a scenario there). */
export async function pay(baseUrl: string, bookingId: string, form: { mpin?: string; scenario?: string } = {}): Promise<Response> {
  const response = await fetch(`${baseUrl}/web/pay/${encodeURIComponent(bookingId)}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mpin: form.mpin ?? '1234', method: 'wallet_balance', ...(form.scenario ? { scenario: form.scenario } : {}) }).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response;
}

/** A JSON call to one of the sandbox's `/sandbox/` controls. */
export async function control<T = unknown>(baseUrl: string, path: string, body?: unknown): Promise<{ status: number; data: T; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as Record<string, unknown>;
  return { status: response.status, data: parsed['data'] as T, body: parsed };
}

/**
 * Waits (at most `ms`) until `check` holds; fails with `what` otherwise. The shared test/support/poll.ts
 * under its older name, kept for the files that still call it: new waits call `pollUntil` itself.
 */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  await pollUntil(check, { what, timeoutMs: ms });
}

/**
 * The kit's own handler as a merchant on loopback (node:http), talking to `sandbox`: orders of any id
 * at `amount`. Its endpoint is `${url}/api/pay`.
 */
export async function startKit(sandbox: { baseUrl: string; accessKey: string; productCodes: string[] }, amount = 1250.5): Promise<{ endpoint: string; close(): Promise<void> }> {
  const port = await freePort();
  const running = await serve(
    toNodeListener(
      createPaymentHandler({
        serviceUrl: sandbox.baseUrl,
        productCode: sandbox.productCodes[0]!,
        accessKey: sandbox.accessKey,
        store: createMemoryStore(),
        callbackUrl: `http://127.0.0.1:${port}/api/pay/callback`,
        redirectUrl: `http://127.0.0.1:${port}/return`,
        lookupOrder: async (order) => ({ id: String(order.id), amount }),
        onPaymentResult: () => undefined,
        timeoutMs: 5000,
      }),
    ),
    port,
  );
  return { endpoint: `${running.url}/api/pay`, close: () => running.close() };
}

/** What {@link callbackBench} sets up. */
export interface CallbackBench {
  readonly sandbox: Sandbox;
  readonly receiver: Receiver;
  /** Books at the sandbox with the receiver as the callback URL; answers the booking id. */
  booked(): Promise<string>;
}

/**
 * A sandbox (product `EXP01`, one callback try, no wait between tries) and a merchant receiver, for
 * the enclosing file: started before its tests, closed after them.
 */
export function callbackBench(): CallbackBench {
  let sandbox: Sandbox | undefined;
  let receiver: Receiver | undefined;
  before(async () => {
    receiver = await startReceiver();
    sandbox = await startSandbox({ productCode: 'EXP01', callbackRetry: { attempts: 1, baseDelayMs: 0 } });
  });
  after(async () => {
    await sandbox?.close();
    await receiver?.close();
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    get receiver() {
      return receiver!;
    },
    async booked() {
      const { body } = await book(sandbox!.baseUrl, { key: sandbox!.accessKey, product: 'EXP01', callbackUrl: receiver!.url });
      return body.data!['booking_id']!;
    },
  };
}
