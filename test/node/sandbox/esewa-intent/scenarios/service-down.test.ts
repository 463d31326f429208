/**
 * WPS-014 (service-down) takes the whole service down, not one booking: once a booking of the scenario
 * is confirmed, every API call (any booking's status and cancel, a new book) gets a bare 503 for 60 s
 * on the sandbox's clock. Played against the kit's own handler on loopback.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../../src/sandbox/index.js';
import { control, pay, startKit, status } from '../../support.js';

const KEY = 'down-key';
const PRODUCT = 'DOWN01';
let sandbox: Sandbox;
let kit: { endpoint: string; close(): Promise<void> };
const lines: string[] = [];

before(async () => {
  // Retries an hour apart: only the moved clock makes them.
  sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 3, baseDelayMs: 3_600_000 }, log: (line) => lines.push(line) });
  kit = await startKit(sandbox);
});
after(async () => {
  await kit?.close();
  await sandbox?.close();
});

async function post(route: string, body: unknown, key?: string): Promise<{ status: number; code?: string; data?: Record<string, string> }> {
  const response = await fetch(`${kit.endpoint}/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const json = (await response.json()) as { code?: string; data?: Record<string, string> };
  return { status: response.status, ...json };
}

const bookThroughKit = (id: string) => post('book', { channel: 'app', order: { id } }, `down-${crypto.randomUUID()}`);

test('WPS-014: once confirmed, every API call of the service answers 503 for 60 s (other bookings, new books), then all answer again and the callback comes', async () => {
  await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: PRODUCT, scenario: 'WPS-014' });
  const down = await bookThroughKit('D-1');
  await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: PRODUCT, scenario: null });
  const other = await bookThroughKit('D-2');
  assert.equal(down.status, 200);
  assert.equal(other.status, 200);
  assert.equal(sandbox.getBooking(down.data!['booking_id']!)?.scenario, 'WPS-014');
  assert.equal(sandbox.getBooking(other.data!['booking_id']!)?.scenario, undefined);

  assert.equal((await pay(sandbox.baseUrl, down.data!['booking_id']!)).status, 303);
  // Another booking, asked of the service directly: the service itself is down.
  const direct = await status(sandbox.baseUrl, KEY, PRODUCT, other.data!['booking_id']!, other.data!['correlation_id']!);
  assert.equal(direct.status, 503);
  assert.equal(await direct.text(), 'Service Unavailable');
  // Through the kit: another booking's status and a new book both meet the outage.
  const asked = await post('status', { booking_id: other.data!['booking_id'], correlation_id: other.data!['correlation_id'] });
  assert.equal(asked.code, 'IP-502', JSON.stringify(asked));
  const refused = await bookThroughKit('D-3');
  assert.equal(refused.code, 'IP-502', JSON.stringify(refused));
  assert.ok(lines.some((line) => /service down for 60 s \[WPS-014\]/.test(line)), 'the log names the scenario');
  assert.ok(lines.some((line) => /^book .*\[WPS-014\]: 503 \(service down\)/.test(line)), lines.join('\n'));
  assert.deepEqual(sandbox.callbackDeliveries({ booking_id: down.data!['booking_id']! }).map((d) => d.state), ['scheduled']);

  await sandbox.clock.advance('60s');
  await sandbox.whenCallbacksSettled();
  assert.deepEqual(sandbox.callbackDeliveries({ booking_id: down.data!['booking_id']! }).map((d) => d.state), ['delivered']);
  const paid = await post('status', { booking_id: down.data!['booking_id'], correlation_id: down.data!['correlation_id'] });
  assert.equal(paid.data?.['status'], 'SUCCESS');
  const open = await post('status', { booking_id: other.data!['booking_id'], correlation_id: other.data!['correlation_id'] });
  assert.equal(open.data?.['status'], 'BOOKED');
  assert.equal((await bookThroughKit('D-3')).status, 200);
});
