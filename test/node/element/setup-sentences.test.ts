import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { write } from '../../../src/element/setup-sentences.js';

/** The warnings `write` prints while `run` runs. */
async function warnings(t: TestContext, run: () => Promise<void>): Promise<string[]> {
  const said: string[] = [];
  const mocked = t.mock.method(console, 'warn', (message: unknown) => void said.push(String(message)));
  try {
    await run();
  } finally {
    mocked.mock.restore();
  }
  return said;
}

/** A storage keeping one booking, `bookingId`, under `key` (as the element keeps one before leaving). */
function keeping(key: string, bookingId: string): Storage {
  const items = new Map([[key, JSON.stringify({ booking_id: bookingId, correlation_id: 'c', channel: 'web', idempotency_key: 'k', started_at: 0 })]]);
  return { get length() { return items.size; }, key: (i: number) => [...items.keys()][i] ?? null, getItem: (k: string) => items.get(k) ?? null } as Storage;
}

test('each kind of notice is one sentence naming the attribute, its value and the fix (a return page: only what it could not tell)', async (t) => {
  const key = (order: string) => `wallet-pay-button:/api/pay|${order}`;
  const said = await warnings(t, () =>
    write([
      { kind: 'problem', message: 'endpoint is required.' },
      { kind: 'one-of', attribute: 'variant', value: 'neon', list: ['filled', 'outline'], fallback: 'filled' },
      { kind: 'misspelled', name: 'order-ids', near: 'order-id' },
      { kind: 'return-page', query: '?booking_id=B-1&status=SUCCESS', storage: keeping(key('{"id":"O-1"}'), 'B-1'), storageKey: key('{"id":"O-2"}') },
      { kind: 'return-page', query: '?booking_id=B-2&status=FAILED', storage: keeping(key('{"id":"O-9"}'), 'B-9'), storageKey: key('{"id":"O-3"}') },
      { kind: 'return-page', query: '?booking_id=B-3&status=SUCCESS', storage: keeping(key('{"id":"O-4"}'), 'B-3'), storageKey: key('{"id":"O-4"}') },
      { kind: 'return-page', query: '?pidx=P-1&status=Completed', storage: null, storageKey: key('{"id":"O-5"}') },
      { kind: 'allowed-hosts', allowedHosts: 'pay.example', host: 'wallet.example' },
    ]),
  );
  assert.deepEqual(said, [
    '<wallet-pay-button>: endpoint is required.',
    '<wallet-pay-button>: variant="neon" is not one of: filled, outline; the default (filled) is used.',
    '<wallet-pay-button>: order-ids is not an attribute of <wallet-pay-button>: did you mean order-id?',
    `<wallet-pay-button>: booking_id=B-1&status=SUCCESS in this page's address was booked for order {"id":"O-1"}, not {"id":"O-2"}: only /order can tell this element whether it is paid. Send each order back to its own checkout (redirectUrl), where /order finds it, or show the order's state from your records.`,
    `<wallet-pay-button>: booking_id=B-2&status=FAILED in this page's address is not kept in this tab (a new tab, or another browser?): only /order can tell this element whether it is paid. Send each order back to its own checkout (redirectUrl), where /order finds it, or show the order's state from your records.`,
    '<wallet-pay-button>: allowed-hosts="pay.example" does not list wallet.example, so the service\'s address was refused and the booking cancelled. Add wallet.example: list the deeplinks\' host (phones) and the web payment host (desktops).',
  ]);
});

test("an endpoint that is not the handler is described by its status, type and page title", async (t) => {
  const page = new Response('<html><head><title> Not Found | Shop </title></head></html>', { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
  const bare = new Response(null, { status: 502 });
  const said = await warnings(t, () =>
    write([
      { kind: 'endpoint', endpoint: '/api/payy', url: 'https://shop.example/api/payy/book', response: page },
      { kind: 'endpoint', endpoint: '/gone', url: 'https://shop.example/gone/book', response: bare },
    ]),
  );
  assert.deepEqual(said, [
    '<wallet-pay-button>: endpoint="/api/payy": POST https://shop.example/api/payy/book answered HTTP 404 (text/html "Not Found | Shop"), not the payment handler\'s JSON: set endpoint to the path the handler is mounted on.',
    '<wallet-pay-button>: endpoint="/gone": POST https://shop.example/gone/book answered HTTP 502 (no type), not the payment handler\'s JSON: set endpoint to the path the handler is mounted on.',
  ]);
});

test('a sentence is written once per page, however often its mistake is found', async (t) => {
  const notice = { kind: 'misspelled', name: 'lable', near: 'label' } as const;
  const said = await warnings(t, async () => {
    await write([notice, notice]);
    await write([notice]);
  });
  assert.deepEqual(said, ['<wallet-pay-button>: lable is not an attribute of <wallet-pay-button>: did you mean label?']);
});
