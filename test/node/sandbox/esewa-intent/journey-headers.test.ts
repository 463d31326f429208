/**
 * Journey headers: the target's, the journey's and a step's go, merged by name, with every request
 * to the merchant's endpoint and with none to the sandbox; references in them resolve; a shape that
 * is not names and strings is refused naming its place, before any request or at its step.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkJourney, JourneyError, runJourney, type JourneyStep } from '../../../../src/sandbox/esewa-intent/journey.js';

/** Plays both the merchant (`/api/pay/...`) and the sandbox (`/sandbox/...`), recording each request's headers. */
let seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
const server = createServer((req, res) => {
  seen.push({ path: req.url ?? '', headers: req.headers });
  req.resume();
  const data = req.url?.startsWith('/sandbox/callbacks') ? [{ state: 'delivered', status: 'SUCCESS' }] : { booking_id: 'BK-1', correlation_id: 'C-1', status: 'SUCCESS' };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'IP-201', message: 'ok', data }));
});
let url = '';
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())));

const run = (steps: JourneyStep[], headers?: Record<string, string>, targetHeaders?: Record<string, string>) =>
  runJourney({ name: 'headers', ...(headers ? { headers } : {}), steps }, { endpoint: `${url}/api/pay`, sandboxUrl: url, env: { SESSION: 's-1' }, waitMs: 2_000, ...(targetHeaders ? { headers: targetHeaders } : {}) });

describe('journey headers', () => {
  test("the merchant's requests carry them, merged target < journey < step by name in any case; the sandbox's carry none", async () => {
    seen = [];
    const result = await run(
      [
        { as: 'o', book: { order: { id: 'A' } } },
        { status: { booking: '${o.data.booking_id}', correlation: '${o.data.correlation_id}' }, headers: { COOKIE: 'session=step', 'x-booking': '${o.data.booking_id}' } },
        { cancel: { booking: '${o.data.booking_id}', correlation: '${o.data.correlation_id}' } },
        { expectStatus: { booking: '${o.data.booking_id}', correlation: '${o.data.correlation_id}', status: 'SUCCESS' } },
        { pay: { booking: '${o.data.booking_id}' } },
        { clock: '6m' },
        { expectCallback: { booking: '${o.data.booking_id}' } },
        { expectStatus: { booking: '${o.data.booking_id}', status: 'SUCCESS', via: 'sandbox' } },
      ],
      { Cookie: 'session=${env.SESSION}' },
      { cookie: 'session=target', 'x-shop-test': 'yes' },
    );
    // pay answers 200 here, not the page's redirect: the step fails, the rest are not run.
    assert.match(result.steps[4]!.error ?? '', /pay: the payment page answered 200/);
    const merchant = seen.filter((r) => r.path.startsWith('/api/pay/'));
    assert.deepEqual(
      merchant.map((r) => [r.path, r.headers['cookie'], r.headers['x-shop-test'], r.headers['x-booking']]),
      [
        ['/api/pay/book', 'session=s-1', 'yes', undefined],
        ['/api/pay/status', 'session=step', 'yes', 'BK-1'],
        ['/api/pay/cancel', 'session=s-1', 'yes', undefined],
        ['/api/pay/status', 'session=s-1', 'yes', undefined],
      ],
    );
    assert.match(String(merchant[0]!.headers['idempotency-key']), /^journey-/, "book keeps its own Idempotency-Key");
    assert.equal(merchant[0]!.headers['content-type'], 'application/json');
    assert.ok(seen.some((r) => r.path.includes('/confirm')), 'the sandbox was asked too');

    seen = [];
    const sandboxOnly = await run([{ clock: '6m' }, { expectCallback: { booking: 'BK-1' } }, { expectStatus: { booking: 'BK-1', status: 'SUCCESS', via: 'sandbox' } }], { cookie: 'session=x' }, { cookie: 'y' });
    assert.ok(sandboxOnly.ok, JSON.stringify(sandboxOnly.steps));
    assert.equal(seen.length, 3);
    for (const r of seen) assert.equal(r.headers['cookie'], undefined, `${r.path} carries no cookie`);
  });

  test('a shape that is not header names and strings is refused, naming the place, before any request', () => {
    assert.throws(() => checkJourney({ headers: ['cookie'], steps: [{ book: {} }] }, 'j.json'), (error: unknown) => error instanceof JourneyError && /^j.json: the journey's "headers" must be an object of header names and string values, e\.g\. \{"cookie": "session=\$\{env.SHOP_SESSION\}"\}; got \["cookie"\]\.$/.test(error.message));
    assert.throws(() => checkJourney({ steps: [{ book: {} }, { status: {}, headers: { cookie: 1 } }] }, 'j.json'), /j.json: step 2's "headers" must be .*; got "cookie": 1\./);
    assert.throws(() => checkJourney({ steps: [{ repeat: { times: 1, steps: [{ book: {}, headers: 'cookie: a' }] } }] }), /step 1 > step 1's "headers" must be/);
    assert.throws(() => checkJourney({ steps: [{ book: {}, headers: { 'bad name': 'x' } }] }), /got "bad name": "x"/);
    assert.doesNotThrow(() => checkJourney({ headers: { cookie: 'a' }, steps: [{ book: {}, headers: {}, name: 'n', as: 'o' }] }));
  });

  test("the target's bad headers reject the run; a reference that is not a string fails its step; a bad value fails its step", async () => {
    seen = [];
    await assert.rejects(run([{ book: {} }], undefined, { cookie: 2 as unknown as string }), /the target's "headers" must be .*got "cookie": 2/);
    assert.equal(seen.length, 0, 'nothing was sent');

    const object = await run([{ as: 'o', book: {} }, { status: {}, headers: { cookie: '${o.data}' } }]);
    assert.match(object.steps[1]!.error ?? '', /the step's "headers" must be .*got "cookie": \{"booking_id":"BK-1"/);

    const missing = await run([{ book: {} }], { cookie: 'session=${env.NOPE}' });
    assert.match(missing.steps[0]!.error ?? '', /the environment has no NOPE/);

    const newline = await run([{ book: {}, headers: { cookie: 'a\r\nx-injected: 1' } }]);
    assert.equal(newline.ok, false);
    assert.ok(!seen.some((r) => r.headers['x-injected']), 'no header was smuggled');
  });
});
