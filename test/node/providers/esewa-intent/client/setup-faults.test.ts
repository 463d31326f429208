/**
 * Set-up faults of the merchant's server (issue 13, point 10): a wrong access key, product code or
 * service URL cannot be cured by a retry, so the browser gets IP-501 (HTTP 500) while `onError` names
 * the cause; transient faults (down, 5xx, timeout) keep IP-502 / IP-504.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../../../src/server/handler.js';
import { createMemoryStore } from '../../../../../src/server/index.js';
import { answer, closedPortUrl, listen, type Loopback } from '../../../server/helpers.js';
import { restoreEnvAfter } from '../../../../support/env.js';

const KEY = 'setup-faults-access-key';
const PRODUCT = 'SETUP01';

describe('set-up faults of the merchant server', () => {
  let sandbox: Sandbox;
  let options: Omit<PaymentHandlerOptions, 'store'>;
  const servers: Loopback[] = [];
  let errors: unknown[] = [];

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
    options = {
      serviceUrl: sandbox.baseUrl,
      productCode: PRODUCT,
      accessKey: KEY,
      callbackUrl: `${await closedPortUrl()}/callback`,
      redirectUrl: 'http://merchant.test/return',
      lookupOrder: (order) => ({ id: String(order.id), amount: 100 }),
      onPaymentResult: () => {},
      onError: (error) => errors.push(error),
    };
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await sandbox.close();
  });

  async function bookWith(overrides: Partial<PaymentHandlerOptions>): Promise<{ status: number; code: string; message: string }> {
    errors = [];
    const handler = createPaymentHandler({ ...options, store: createMemoryStore(), ...overrides });
    const response = await handler(
      new Request('http://merchant.test/api/pay/book', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `setup-${crypto.randomUUID()}` },
        body: JSON.stringify({ channel: 'app', order: { id: 'S-1' } }),
      }),
    );
    const body = (await response.json()) as { code: string; error_message: string };
    return { status: response.status, code: body.code, message: body.error_message };
  }

  const served = async (status: number, type: string, body: string) => {
    const server = await listen(answer(status, type, body));
    servers.push(server);
    return server.url;
  };

  const cases: Array<[string, () => Promise<Partial<PaymentHandlerOptions>>, RegExp]> = [
    [
      'a wrong access key (the service answers IP-400)',
      async () => ({ accessKey: 'not-the-key' }),
      /refused the signature of book \(IP-400 "Invalid Signature"\): the accessKey given to createPaymentHandler is not the key the provider issued for productCode "SETUP01"/,
    ],
    [
      'a wrong product code (the service answers IP-401)',
      async () => ({ productCode: 'NOPE01' }),
      /does not know productCode "NOPE01" \(IP-401 "Unknown product_code "NOPE01".*set the product code the provider assigned/,
    ],
    ['a service URL with a wrong path (the service answers 404)', async () => ({ serviceUrl: `${sandbox.baseUrl}/v1` }), /HTTP 404|No endpoint/],
    [
      'a service URL that is a web site (200 with an HTML page)',
      async () => ({ serviceUrl: await served(200, 'text/html', '<!doctype html><title>Shop</title>') }),
      /not JSON/,
    ],
    ['a service URL that answers 404 in HTML', async () => ({ serviceUrl: await served(404, 'text/html', '<h1>Not Found</h1>') }), /HTTP 404/],
  ];
  for (const [name, make, cause] of cases) {
    test(`${name}: IP-501 to the browser, the cause to onError`, async () => {
      const answer = await bookWith(await make());
      assert.equal(answer.code, 'IP-501', answer.message);
      assert.equal(answer.status, 500);
      assert.match(answer.message, /contact the shop/);
      assert.equal(errors.length, 1);
      assert.match(String((errors[0] as Error).message), cause);
    });
  }

  test('transient faults keep their codes: down and 5xx are IP-502, a hang is IP-504', async () => {
    assert.equal((await bookWith({ serviceUrl: await closedPortUrl() })).code, 'IP-502');
    assert.equal((await bookWith({ serviceUrl: await served(503, 'text/html', '<h1>Bad gateway</h1>') })).code, 'IP-502');
    assert.equal((await bookWith({ serviceUrl: await served(500, 'application/json', '{"code":"IP-500","error_message":"boom"}') })).code, 'IP-502');
    assert.equal((await bookWith({ serviceUrl: await served(429, 'text/plain', 'slow down') })).code, 'IP-502');
    const hanging = await listen(() => {});
    servers.push(hanging);
    assert.equal((await bookWith({ serviceUrl: hanging.url, timeoutMs: 100 })).code, 'IP-504');
  });

  test('set-up mistakes in the options fail at construction, naming the option and the fix', () => {
    const make = (overrides: Partial<PaymentHandlerOptions>) => () => createPaymentHandler({ ...options, store: createMemoryStore(), ...overrides });
    assert.throws(make({ callbackUrl: '/api/pay/callback' }), /callbackUrl must be an absolute URL \(http: or https:\), this handler's public callback address, e\.g\. https:\/\/shop\.example\/api\/pay\/callback; got "\/api\/pay\/callback"/);
    assert.throws(make({ callbackUrl: 'ftp://shop.example/callback' }), /callbackUrl must be an absolute URL/);
    assert.throws(
      make({ serviceUrl: 'https://pay.provider.example/api/client/intent/payment' }),
      /serviceUrl must be the service's base address without the API path: got "https:\/\/pay\.provider\.example\/api\/client\/intent\/payment"; use "https:\/\/pay\.provider\.example"/,
    );
    assert.throws(make({ serviceUrl: 'https://pay.provider.example/gw/api/client/intent/payment/book' }), /use "https:\/\/pay\.provider\.example\/gw"/);
    assert.throws(make({ serviceUrl: 'pay.provider.example' }), /serviceUrl must be an absolute URL/);
  });

  test('plain-http URLs that are not loopback: a loud warning under NODE_ENV=production, naming the option and the fix', (t) => {
    const warnings: string[] = [];
    t.mock.method(console, 'warn', (...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
    restoreEnvAfter(t, 'NODE_ENV');
    const plain = { serviceUrl: 'http://pay.provider.example', callbackUrl: 'http://shop.example/api/pay/callback' };
    delete process.env.NODE_ENV;
    createPaymentHandler({ ...options, store: createMemoryStore(), ...plain });
    assert.deepEqual(warnings, [], 'not production: quiet');
    process.env.NODE_ENV = 'production';
    createPaymentHandler({ ...options, store: createMemoryStore(), serviceUrl: 'http://127.0.0.1:4010', callbackUrl: 'http://localhost:3000/callback' });
    assert.deepEqual(warnings.filter((w) => /plain http/.test(w)), [], 'loopback is fine');
    createPaymentHandler({ ...options, store: createMemoryStore(), ...plain });
    const http = warnings.filter((w) => /plain http/.test(w));
    assert.equal(http.length, 2, http.join(' | '));
    assert.match(http[0]!, /serviceUrl is plain http \(http:\/\/pay\.provider\.example\/\) under NODE_ENV=production.*use https:\/\/ for serviceUrl/);
    assert.match(http[1]!, /callbackUrl is plain http \(http:\/\/shop\.example\/api\/pay\/callback\).*use https:\/\/ for callbackUrl/);
  });
});
