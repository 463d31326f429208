/**
 * What a booking and a status check cost in round trips to the database, with the real handler in
 * front of the real sandbox: the same tests for every store on a server (PostgreSQL, MySQL, Redis),
 * each given a client that counts what it asks of its server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler, type PaymentResult } from '../../src/server/handler.js';
import type { PaymentStore } from '../../src/server/store.js';
import { payAtWallet } from './pay-at-wallet.js';

const KEY = 'round-trip-access-key';
const PRODUCT = 'TRIPS01';

/** A store on a counting client, and the way to stop its server. */
export interface CountedStore {
  store: PaymentStore & { ready(): Promise<void> };
  counting: { readonly count: number; readonly statements: string[]; reset(): void };
  close(): Promise<void>;
}

export function roundTripTests(name: string, open: () => Promise<CountedStore>): void {
  describe(`database round trips with the ${name}`, () => {
    let sandbox: Sandbox;
    let counted: CountedStore;
    let handler: PaymentHandler;
    const delivered: PaymentResult[] = [];
    /** Orders whose total is not the usual 250. */
    const prices = new Map<string, number>();

    before(async () => {
      sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
      counted = await open();
      await counted.store.ready();
      handler = createPaymentHandler({
        serviceUrl: sandbox.baseUrl,
        productCode: PRODUCT,
        accessKey: KEY,
        callbackUrl: 'http://127.0.0.1:9/callback',
        redirectUrl: 'http://merchant.test/return',
        store: counted.store,
        lookupOrder: (order) => ({ id: String(order.id), amount: prices.get(String(order.id)) ?? 250 }),
        onPaymentResult: (result) => void delivered.push(result),
      });
    });
    after(async () => {
      await counted?.close();
      await sandbox?.close();
    });

    const post = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await handler(
        new Request(`http://merchant.test/api/pay/${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }),
      );
      return (await response.json()) as { code: string; data?: Record<string, string> };
    };
    const trips = async <T>(call: () => Promise<T>): Promise<{ trips: number; statements: string[]; value: T }> => {
      counted.counting.reset();
      const value = await call();
      return { trips: counted.counting.count, statements: counted.counting.statements, value };
    };
    const book = (key: string, id: string) => post('book', { channel: 'app', order: { id } }, { 'idempotency-key': key });

    // A replay costs two since the kit re-prices an attempt: after the key's booking it asks for the
    // key's later one (`key~1`), which a replay after the order's total changed would have booked.
    test('a new booking costs at most two round trips, a replay of its key two (its booking, and that the attempt was not re-priced since)', async () => {
      const key = `trips-${crypto.randomUUID()}`;
      const id = `TRIPS-${crypto.randomUUID()}`;
      const first = await trips(() => book(key, id));
      assert.equal(first.value.code, 'IP-201');
      assert.ok(first.trips <= 2, `${first.trips} round trips:\n${first.statements.join('\n')}`);
      const replay = await trips(() => book(key, id));
      assert.equal(replay.value.data?.booking_id, first.value.data?.booking_id);
      assert.equal(replay.trips, 2, replay.statements.join('\n'));
    });

    test('a second key for an order with an open booking: cancels it and books in two round trips beside the service calls and the two of its CANCELED delivery', async () => {
      const id = `TRIPS-TABS-${crypto.randomUUID()}`;
      await book(`tab-a-${crypto.randomUUID()}`, id);
      const second = await trips(() => post('book', { channel: 'web', order: { id } }, { 'idempotency-key': `tab-b-${crypto.randomUUID()}` }));
      assert.equal(second.value.code, 'IP-201');
      // The cancel's CANCELED result is delivered on the way: its claim (which answers the booking's other
      // results: no SUCCESS may be known) and its completion are two more.
      assert.ok(second.trips <= 4, `${second.trips} round trips:\n${second.statements.join('\n')}`);
    });

    test('a replayed key whose order now costs more: at most six round trips (the old booking read first, and its later ones), three for a replay of it', async () => {
      const key = `repriced-${crypto.randomUUID()}`;
      const id = `TRIPS-PRICE-${crypto.randomUUID()}`;
      const first = await book(key, id);
      prices.set(id, 300);
      const repriced = await trips(() => book(key, id));
      assert.equal(repriced.value.code, 'IP-201');
      assert.notEqual(repriced.value.data?.booking_id, first.data?.booking_id);
      // The key's old booking and the check for later ones, then the book under `key~1` (two), and the old
      // booking's CANCELED result delivered on the way (two, as for a second key above).
      assert.ok(repriced.trips <= 6, `${repriced.trips} round trips:\n${repriced.statements.join('\n')}`);
      const replay = await trips(() => book(key, id));
      assert.equal(replay.value.data?.booking_id, repriced.value.data?.booking_id);
      assert.equal(replay.trips, 3, replay.statements.join('\n'));
    });

    test("a status check of a paid booking: at most three round trips the first time (the booking read, the SUCCESS's judged claim and its completion), one after", async () => {
      const booked = await book(`paid-${crypto.randomUUID()}`, `TRIPS-PAID-${crypto.randomUUID()}`);
      const { booking_id, correlation_id, deeplink } = booked.data!;
      await payAtWallet(deeplink!);
      const first = await trips(() => post('status', { booking_id, correlation_id }));
      assert.equal(first.value.data?.status, 'SUCCESS');
      assert.equal(delivered.filter((r) => r.correlation_id === correlation_id).length, 1);
      // The delivery is two of them: the claim, which reads the order's other payments in the same step
      // (the duplicate check), and its completion.
      assert.ok(first.trips <= 3, `${first.trips} round trips:\n${first.statements.join('\n')}`);
      for (let i = 0; i < 3; i++) {
        const again = await trips(() => post('status', { booking_id, correlation_id }));
        assert.equal(again.value.data?.status, 'SUCCESS');
        assert.equal(again.trips, 1, again.statements.join('\n'));
      }
      assert.equal(delivered.filter((r) => r.correlation_id === correlation_id).length, 1, 'delivered once');
    });
  });
}
