/** The run's own checks: options refused by name before anything starts, and the production warning. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOptions, NO_RECONCILE_WARNING, productionWarning, runCheck, runWarnings, type CheckOptions } from '../../../src/check/run.js';

const GOOD: CheckOptions = { endpoint: 'http://127.0.0.1:8080/api/pay', sandboxPort: 4099, orderPrefix: 'CHK-', amount: 1000, reconcile: 'php proxy.php reconcile' };

test('good options pass, whatever optional parts they carry', () => {
  checkOptions(GOOD);
  checkOptions({ ...GOOD, endpoint: 'https://shop.example/api/pay', amount: 0.01, provider: 'epay', requestTimeoutMs: 100, callbackOrigins: ['https://public.example/'] });
  checkOptions({ ...GOOD, amount: 999_999_999.99, orderPrefix: 'a.b:c_d-1' });
});

test('each bad option is refused with a TypeError naming it', () => {
  const cases: Array<[Partial<CheckOptions>, RegExp]> = [
    [{ endpoint: 'not a url' }, /^--endpoint must be an absolute http\(s\) URL; got "not a url"\.$/],
    [{ endpoint: 'ftp://shop.example/pay' }, /^--endpoint must be an http\(s\) URL/],
    [{ sandboxPort: 0 }, /^--sandbox-port must be a whole number from 1 to 65535; got 0\.$/],
    [{ sandboxPort: 4010.5 }, /--sandbox-port/],
    [{ orderPrefix: '' }, /^--order-prefix must be 1 to 32 letters/],
    [{ orderPrefix: 'has space' }, /--order-prefix/],
    [{ orderPrefix: 'x'.repeat(33) }, /--order-prefix/],
    [{ callbackOrigins: ['shop.example'] }, /^--callback-origin must be an origin such as https:\/\/shop\.example; got "shop\.example"\.$/],
    [{ callbackOrigins: ['https://shop.example/pay'] }, /--callback-origin/],
    [{ provider: 'paypal' as 'epay' }, /^--provider must be "intent", "epay" or "khalti"; got "paypal"\.$/],
    [{ requestTimeoutMs: 99 }, /^requestTimeoutMs must be a whole number of at least 100; got 99\.$/],
    [{ amount: 0 }, /^--amount must be a positive amount with at most two decimals; got 0\.$/],
    [{ amount: 10.005 }, /--amount/],
    [{ amount: 1_000_000_000 }, /--amount/],
    [{ reconcile: undefined as unknown as false }, /^reconcile must be the proxy's reconciliation \(--reconcile-command\), or false \(--no-reconcile\) for a backend that has none; got none\.$/],
    [{ reconcile: '  ' }, /^reconcile must be .*got " {2}"\.$/],
    [{ reconcile: true as unknown as false }, /^reconcile must be .*got true\.$/],
  ];
  for (const [change, message] of cases) assert.throws(() => checkOptions({ ...GOOD, ...change }), (error: Error) => error instanceof TypeError && message.test(error.message), JSON.stringify(change));
});

test('a backend without reconciliation is checked only when told so, and its warning names the risk', () => {
  checkOptions({ ...GOOD, reconcile: false });
  checkOptions({ ...GOOD, reconcile: async () => {} });
  assert.deepEqual(runWarnings(GOOD), []);
  assert.deepEqual(runWarnings({ ...GOOD, reconcile: false }), [NO_RECONCILE_WARNING]);
  assert.match(NO_RECONCILE_WARNING, /--no-reconcile.*shopper never came back.*stays unsettled/);
  assert.equal(runWarnings({ endpoint: 'https://shop.example.com/pay', reconcile: false }).length, 2, 'both warnings, production first');
});

test('runCheck refuses bad options before it starts anything', async () => {
  await assert.rejects(runCheck({ ...GOOD, reconcile: undefined as unknown as false }), { name: 'TypeError', message: /--no-reconcile/ });
  await assert.rejects(runCheck({ ...GOOD, sandboxPort: -1 }), { name: 'TypeError', message: /--sandbox-port/ });
});

test('an https endpoint on a public host is warned about; this machine and private networks are not', () => {
  assert.match(productionWarning('https://shop.example.com/api/pay')!, /^warning: https:\/\/shop\.example\.com looks like production \(https on a public host\)/);
  assert.ok(productionWarning('https://8.8.8.8/api/pay'));
  assert.ok(productionWarning('https://172.32.0.1/api/pay'), '172.32 is public');
  const quiet = [
    'http://shop.example.com/api/pay',
    'https://localhost:8443/api/pay',
    'https://shop.localhost/api/pay',
    'https://check.test/api/pay',
    'https://box.internal/pay',
    'https://127.0.0.1/pay',
    'https://10.1.2.3/pay',
    'https://192.168.0.9/pay',
    'https://172.16.0.1/pay',
    'https://169.254.1.1/pay',
    'https://[::1]/pay',
    'https://[fd00::1]/pay',
  ];
  for (const endpoint of quiet) assert.equal(productionWarning(endpoint), undefined, endpoint);
});
