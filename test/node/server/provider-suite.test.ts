/**
 * The provider suite against both of the kit's adapters on the local sandbox (real HTTP on loopback),
 * and the suite itself failing an adapter that breaks the contract.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import type { PaymentProvider } from '../../../src/server/provider.js';
import { runProviderSuite, type ProviderSuiteOptions } from '../../../src/server/provider-suite.js';
import { epayOnSandbox } from '../providers/epay/harness.js';
import { intentOnSandbox } from '../providers/esewa-intent/harness.js';

describe('the provider suite on the local sandbox', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ productCode: 'SUITE01', accessKey: 'suite-key', sendCallback: () => false });
  });
  after(() => sandbox.close());
  runProviderSuite({ name: 'esewa-epay', test, assert, ...epayOnSandbox(() => sandbox) });
  runProviderSuite({ name: 'esewa-intent', test, assert, ...intentOnSandbox(() => sandbox) });
});

/** The suite's tests on `breaking(provider)`, run here: the titles of those that fail. */
async function failingTitles(
  sandbox: Sandbox,
  breaking: (provider: PaymentProvider) => PaymentProvider,
  overrides: Partial<ProviderSuiteOptions> = {},
  onSandbox = epayOnSandbox,
): Promise<string[]> {
  const registered: Array<{ title: string; run: () => Promise<void> }> = [];
  const harness = onSandbox(() => sandbox);
  runProviderSuite({
    name: 'broken',
    test: (title, run) => registered.push({ title, run }),
    assert,
    ...harness,
    makeProvider: async () => breaking(await harness.makeProvider()),
    ...overrides,
  });
  assert.ok(registered.length >= 8, `the suite registers its tests (${registered.length})`);
  const failed: string[] = [];
  for (const { title, run } of registered) {
    await run().catch(() => failed.push(title.replace('broken: ', '')));
  }
  return failed;
}

describe('the provider suite fails an adapter that breaks the contract', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ sendCallback: () => false });
  });
  after(() => sandbox.close());

  const cases: Array<[string, (provider: PaymentProvider) => PaymentProvider, RegExp]> = [
    ['a web payment that changes between two asks', (p) => ({ ...p, payment: async (ref) => ({ web_payment: { url: `${sandbox.baseUrl}/x?${crypto.randomUUID()}`, method: 'POST', fields: { ...(await p.payment(ref) as { web_payment: { fields: Record<string, string> } }).web_payment.fields } } }) }), /^payment answers/],
    ['a relative web payment URL', (p) => ({ ...p, payment: async () => ({ web_payment: { url: '/pay', method: 'POST', fields: {} } }) }), /^payment answers/],
    ['a status that reads every booking as paid', (p) => ({ ...p, status: async () => ({ status: 'SUCCESS', amount: 100 }) }), /^a fresh booking|^a booking left past/],
    ['a paid amount other than the booked one', (p) => ({ ...p, status: async (ref) => ({ ...(await p.status(ref)), amount: 99 }) }), /^a paid booking/],
    ['the same ids for every reference', (p) => ({ ...p, book: async (input) => ({ ...(await p.book({ ...input, reference: 'fixed' })) }) }), /^book answers ids/],
    ['a cancel the capabilities do not state', (p) => ({ ...p, cancel: async () => ({ status: 'CANCELED' }) }), /^cancel is there exactly/],
    ['a callback without signed callbacks', (p) => ({ ...p, callback: async () => ({ correlation_id: 'x', status: 'SUCCESS' }) }), /^callback is there exactly/],
    ['no minimum amount', (p) => ({ ...p, capabilities: { ...p.capabilities, minAmount: 0 } }), /^names itself/],
  ];
  for (const [what, breaking, expected] of cases) {
    test(`${what}: the suite fails it`, async () => {
      const failed = await failingTitles(sandbox, breaking);
      assert.ok(failed.some((title) => expected.test(title)), `the test that checks it fails; failed: ${JSON.stringify(failed)}`);
    });
  }

  test('an unreachable provider that fails with a plain Error: the suite fails it', async () => {
    const failed = await failingTitles(sandbox, (p) => p, {
      makeUnreachableProvider: () => ({ ...epayOnSandbox(() => sandbox).makeProvider() as PaymentProvider, status: () => Promise.reject(new Error('down')) }),
    });
    assert.deepEqual(failed, ['a provider that cannot be reached fails with a ServiceError of its kind']);
  });

  test('an app deeplink that runs code, and a cancel of a paid booking that succeeds: the suite fails them', async () => {
    const script = await failingTitles(sandbox, (p) => ({ ...p, payment: async (ref) => (ref.channel === 'app' ? { deeplink: 'javascript:alert(1)' } : p.payment(ref)) }), {}, intentOnSandbox);
    assert.ok(script.some((title) => title.startsWith('payment answers')), JSON.stringify(script));
    const cancelled = await failingTitles(sandbox, (p) => ({ ...p, cancel: async (ref) => ({ status: (await p.status(ref)).status === 'SUCCESS' ? 'SUCCESS' : (await p.cancel!(ref)).status }) }), {}, intentOnSandbox);
    assert.deepEqual(cancelled, ['cancel is there exactly with capabilities.cancel: an open booking is CANCELED, a paid one fails with IP-410']);
  });

  test('the adapters as they are: the suite fails none of its tests', async () => {
    assert.deepEqual(await failingTitles(sandbox, (p) => p), []);
    assert.deepEqual(await failingTitles(sandbox, (p) => p, {}, intentOnSandbox), []);
  });
});
