/**
 * The wallet a press was made on: the flow sends it as the book request's `wallet`, keeps it in the
 * booking's settings (so the way back knows it), books another wallet under a key of its own, and
 * "Start again" books the lost booking's wallet. No wallet: the request is today's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BookingError, type BookingClient } from '../../../../src/core/booking-client.js';
import type { BookRequest, BookResult } from '../../../../src/protocol/contract.js';
import { PaymentFlow } from '../../../../src/core/flow/index.js';
import { createBookingStore } from '../../../../src/core/session-store.js';
import { isPaymentSettings } from '../../../../src/core/settings.js';
import { settingsOf } from '../../../support/settings.js';
import { FakeClock, flush } from '../../../support/fake-clock.js';
import { createMemoryBookingStore } from '../../../support/memory-store.js';
import { recordingNavigator } from '../../../support/proxy.js';
import { MemoryStorage } from '../../../support/memory-storage.js';

const webBooking = (id: string): BookResult => ({ booking_id: id, correlation_id: `c-${id}`, channel: 'web', web_payment: { url: 'https://pay.wallet.test/form', method: 'GET' } });

/** A flow whose client records each book request and answers from `answers` (a pure-logic unit test). */
function setup(answers: Array<() => Promise<BookResult>>) {
  const books: Array<{ request: BookRequest; key: string }> = [];
  const store = createMemoryBookingStore();
  let keys = 0;
  const client = (): BookingClient => ({
    book: (request, key) => {
      books.push({ request, key });
      const answer = answers.shift();
      return answer ? answer() : Promise.reject(new Error('no scripted answer'));
    },
    status: () => Promise.reject(new Error('the flow asked /status')),
    cancel: () => Promise.reject(new Error('the flow asked /cancel')),
    order: () => Promise.reject(new Error('the flow asked /order')),
  });
  const flow = new PaymentFlow({
    navigator: () => recordingNavigator(),
    store,
    clock: new FakeClock(),
    client,
    isVisible: () => true,
    newKey: () => `key-${++keys}`,
    timings: () => ({ fallbackDelayMs: 1500, pollDelaysMs: [2000], finalCheckAfterMs: 300_000 }),
    emit: () => true,
    onChange: () => undefined,
  });
  const settings = settingsOf({ environment: 'desktop' });
  flow.configure({ ok: true, settings });
  return { flow, books, store, settings };
}

const offline = () => Promise.reject(new BookingError('network', 'offline'));

describe('payment flow: the wallet pressed', () => {
  it('sends the wallet in the book request and keeps it with the booking', async () => {
    const t = setup([() => Promise.resolve(webBooking('K1'))]);
    assert.equal(t.flow.start('khalti'), true);
    await flush();
    assert.deepEqual(t.books.map(({ request }) => request), [{ channel: 'web', order: { id: 'A-1' }, wallet: 'khalti' }]);
    const kept = t.store.entries.get(t.settings.storageKey);
    assert.equal(kept?.settings.wallet, 'khalti');
    assert.equal(t.flow.state.booking?.settings.wallet, 'khalti');
  });

  it('sends no wallet for a press of the one pay button, as before', async () => {
    const t = setup([() => Promise.resolve(webBooking('E1'))]);
    t.flow.start();
    await flush();
    assert.deepEqual(t.books.map(({ request }) => request), [{ channel: 'web', order: { id: 'A-1' } }]);
    assert.equal('wallet' in t.store.entries.get(t.settings.storageKey)!.settings, false);
  });

  it("books another wallet under a key of its own; the same wallet's retry keeps its key", async () => {
    const t = setup([offline, offline, offline]);
    t.flow.start('esewa');
    await flush();
    t.flow.start('esewa');
    await flush();
    t.flow.start('khalti');
    await flush();
    assert.deepEqual(
      t.books.map(({ request, key }) => [request.wallet, key]),
      [
        ['esewa', 'key-1'],
        ['esewa', 'key-1'],
        ['khalti', 'key-2'],
      ],
    );
  });

  it("'Start again' books the wallet of the attempt it replaces", async () => {
    const t = setup([offline, () => Promise.resolve(webBooking('K2'))]);
    t.flow.start('khalti');
    await flush();
    assert.equal(t.flow.state.name, 'error');
    assert.equal(t.flow.startAgain(), true);
    await flush();
    assert.deepEqual(
      t.books.map(({ request }) => request.wallet),
      ['khalti', 'khalti'],
    );
  });
});

describe('kept settings with a wallet', () => {
  it('read back from the tab with their wallet; a wallet that is no string is not a kept booking', () => {
    const settings = { ...settingsOf(), wallet: 'khalti' };
    assert.equal(isPaymentSettings(settings), true);
    assert.equal(isPaymentSettings({ ...settings, wallet: 7 }), false);
    const storage = new MemoryStorage();
    const store = createBookingStore(storage as unknown as Storage);
    const booking = { booking_id: 'K1', correlation_id: 'c-K1', channel: 'web' as const, idempotency_key: 'k', started_at: 1, settings };
    store.save(settings.storageKey, booking);
    assert.equal(store.load(settings.storageKey, null)?.settings.wallet, 'khalti');
    storage.setItem(settings.storageKey, JSON.stringify({ ...booking, settings: { ...settings, wallet: ['khalti'] } }));
    assert.equal(store.load(settings.storageKey, null), null);
  });
});
