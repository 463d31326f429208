import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertHas } from '../../support/assert.js';
import { canonical } from '../../../src/protocol/values.js';
import { bookingKey, readSettings, type PageContext, type SettingsInput } from '../../../src/core/settings.js';

const DESKTOP = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', maxTouchPoints: 0, innerWidth: 1280 };
const page: PageContext = { pageUrl: 'https://shop.test/checkout?x=1', baseUrl: 'https://shop.test/store/', signals: DESKTOP, framed: false };
const GOOD: SettingsInput = { endpoint: '/api/pay', orderId: 'A-1', allowedHosts: 'Pay.Wallet.test links.wallet.test', successUrl: 'done', returnOrigins: 'https://other.test' };

const problemsOf = (input: SettingsInput, context = page) => {
  const read = readSettings(input, context);
  return read.ok ? [] : read.problems.map((problem) => problem.attribute);
};

describe('readSettings', () => {
  it('reads a payment\'s settings once, resolved against the base URL, with its storage key', () => {
    const read = readSettings(GOOD, page);
    assert.deepEqual(read, {
      ok: true,
      settings: {
        endpoint: 'https://shop.test/api/pay',
        order: { id: 'A-1' },
        environment: 'desktop',
        successUrl: 'done',
        failureUrl: null,
        pageUrl: page.pageUrl,
        baseUrl: page.baseUrl,
        allowedHosts: ['pay.wallet.test', 'links.wallet.test'],
        returnOrigins: ['https://other.test'],
        bookTimeoutMs: 3500,
        storageKey: bookingKey('https://shop.test/api/pay', { id: 'A-1' }),
      },
    });
  });

  it('the order property wins over order-id', () => {
    const read = readSettings({ ...GOOD, order: { id: 'A-9', cart: 'c' } }, page);
    assert.deepEqual(read.ok && read.settings.order, { id: 'A-9', cart: 'c' });
  });

  it('names every problem by its attribute, at once', () => {
    assert.deepEqual(problemsOf({ environment: 'tablet', endpoint: 'ftp://x', bookingTimeout: -1 }), [
      'environment',
      'endpoint',
      'order-id',
      'booking-timeout',
      'allowed-hosts',
    ]);
    assert.deepEqual(problemsOf({ orderId: 'A-1', allowedHosts: 'pay.wallet.test' }), ['endpoint']);
    assert.deepEqual(problemsOf({ ...GOOD, bookingTimeout: Number.NaN }), ['booking-timeout']);
  });

  it('a WebView needs no endpoint, order or allowed hosts (the host app books)', () => {
    const read = readSettings({ environment: 'webview' }, page);
    assertHas(read.ok && read.settings, { environment: 'webview', endpoint: '' });
  });

  it('refuses a cross-origin frame unless allow-framed', () => {
    const framed = { ...page, framed: true };
    const read = readSettings(GOOD, framed);
    assert.deepEqual(read.ok ? null : read.problems.map((problem) => problem.kind), ['framed']);
    assert.equal(readSettings({ ...GOOD, allowFramed: true }, framed).ok, true);
  });

  it('with problems, still names where the booking of a readable endpoint and order is kept', () => {
    const read = readSettings({ endpoint: '/api/pay', orderId: 'A-1' }, page);
    assert.equal(read.ok ? null : read.storageKey, bookingKey('https://shop.test/api/pay', { id: 'A-1' }));
  });
});

describe('the kept-booking key', () => {
  it('writes the order in canonical order, as the server keys it: an order rebuilt with its keys in another order finds its booking', () => {
    const one = bookingKey('https://shop.test/pay', { id: 'A-1', cart: { b: 2, a: 1 }, lines: [{ y: 1, x: 2 }] });
    const other = bookingKey('https://shop.test/pay', { lines: [{ x: 2, y: 1 }], cart: { a: 1, b: 2 }, id: 'A-1' });
    assert.equal(one, other);
    assert.equal(one, `wallet-pay-button:https://shop.test/pay|${JSON.stringify(canonical({ id: 'A-1', cart: { a: 1, b: 2 }, lines: [{ x: 2, y: 1 }] }))}`);
    assert.equal(one, 'wallet-pay-button:https://shop.test/pay|{"cart":{"a":1,"b":2},"id":"A-1","lines":[{"x":2,"y":1}]}');
    // Another order is another key.
    assert.notEqual(one, bookingKey('https://shop.test/pay', { id: 'A-2', cart: { a: 1, b: 2 }, lines: [{ x: 2, y: 1 }] }));
  });
});
