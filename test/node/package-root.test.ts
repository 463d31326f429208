import { test } from 'node:test';
import assert from 'node:assert/strict';

test('the package root imports in Node without a DOM and registers nothing', async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  const root = await import('../../src/index.js'); // the source of the package root (the built one: test/package)
  // The words come with the root, for a server that renders the button's text itself.
  assert.equal(typeof root.STRINGS_EN['button.pay'], 'string');
  // The class is there for server-side rendering; the internals are not public API...
  assert.equal(typeof root.WalletPayButton, 'function');
  for (const internal of ['PaymentFlow', 'STRATEGIES', 'HTTP_STATUS_OF_CODE', 'CODES', 'detectEnvironment', 'createMemoryBookingStore', 'createBookingClient']) {
    assert.equal(internal in root, false, `${internal} is not exported`);
  }
  // ...but importing the root defines no tag: that is `wallet-pay-button/define`'s job.
  const registry = (globalThis as { customElements?: { get(name: string): unknown } }).customElements;
  assert.equal(registry?.get('wallet-pay-button'), undefined);
});
