import { test } from 'node:test';
import assert from 'node:assert/strict';

test('the package root imports in Node without a DOM and registers nothing', async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  const root = await import('wallet-pay-button');
  assert.equal(
    root.detectEnvironment({ userAgent: 'Mozilla/5.0 (iPhone)', maxTouchPoints: 5, innerWidth: 390 }),
    'mobile',
  );
  assert.equal(
    root.detectEnvironment({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', maxTouchPoints: 0, innerWidth: 1280 }),
    'desktop',
  );
  // The class and the building blocks are there for server-side rendering and custom flows...
  assert.equal(typeof root.WalletPayButton, 'function');
  assert.equal(typeof root.PaymentFlow, 'function');
  assert.equal(typeof root.checkProviderUrl, 'function');
  // ...but importing the root defines no tag: that is `wallet-pay-button/define`'s job.
  const registry = (globalThis as { customElements?: { get(name: string): unknown } }).customElements;
  assert.equal(registry?.get('wallet-pay-button'), undefined);
});
