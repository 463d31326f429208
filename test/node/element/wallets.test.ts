/**
 * The wallets a checkout shows, as a function (wallets.ts), and the server's side of them: a
 * handler's `wallets` in its providers' order, each once, written into the server render, which then
 * paints one button per wallet in that order (or `wallet-order`'s), in English and Nepali.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderWallets } from '../../../src/element/wallets.js';
import { renderWalletPayButton } from '../../../src/element/server-render.js';
import { createMemoryStore, createPaymentHandler } from '../../../src/server/index.js';
import { esewaEpay, khalti } from '../../../src/server/providers.js';
import { EPAY_TEST_CREDENTIALS } from '../../../src/providers/epay/wire.js';

describe('orderWallets', () => {
  test("the server's order, each once", () => {
    assert.deepEqual(orderWallets('esewa khalti'), ['esewa', 'khalti']);
    assert.deepEqual(orderWallets('khalti esewa'), ['khalti', 'esewa']);
    assert.deepEqual(orderWallets('  esewa\tkhalti esewa \n'), ['esewa', 'khalti']);
  });

  test('wallet-order puts the names it lists first, the rest follow in the server order', () => {
    assert.deepEqual(orderWallets('esewa khalti', 'khalti'), ['khalti', 'esewa']);
    assert.deepEqual(orderWallets('esewa khalti', 'khalti esewa'), ['khalti', 'esewa']);
    assert.deepEqual(orderWallets('esewa khalti', 'esewa'), ['esewa', 'khalti']);
    assert.deepEqual(orderWallets('esewa khalti', 'khalti khalti'), ['khalti', 'esewa']);
  });

  test('a wallet-order name the server does not offer is ignored, and never adds a wallet', () => {
    assert.deepEqual(orderWallets('esewa khalti', 'paypal khalti'), ['khalti', 'esewa']);
    assert.deepEqual(orderWallets('esewa', 'khalti'), ['esewa']);
  });

  test('a wallet the element has no words for is left out; no wallets is none', () => {
    assert.deepEqual(orderWallets('esewa paypal khalti'), ['esewa', 'khalti']);
    assert.deepEqual(orderWallets(undefined, 'khalti'), []);
    assert.deepEqual(orderWallets(null), []);
    assert.deepEqual(orderWallets(''), []);
  });
});

describe("the handler's wallets", () => {
  const handler = (providers: Parameters<typeof createPaymentHandler>[0]['providers']) =>
    createPaymentHandler({
      providers,
      store: createMemoryStore(),
      lookupOrder: () => undefined,
      onPaymentResult: () => {},
      redirectUrl: 'http://127.0.0.1:9/done',
    });
  const epay = () => esewaEpay({ ...EPAY_TEST_CREDENTIALS });
  const kh = () => khalti({ secretKey: 'test-secret', websiteUrl: 'http://127.0.0.1:9/' });

  test("are its providers' wallets in their order, each once, and read-only", () => {
    assert.deepEqual(handler([epay(), kh()]).wallets, ['esewa', 'khalti']);
    assert.deepEqual(handler([kh(), epay()]).wallets, ['khalti', 'esewa']);
    const both = handler([
      epay(),
      kh(),
      // A second eSewa provider (the intent service after the web checkout) is the same wallet.
      { ...epay(), name: 'esewa-second' },
    ]);
    assert.deepEqual(both.wallets, ['esewa', 'khalti']);
    assert.throws(() => (both.wallets as string[]).push('paypal'), TypeError);
  });

  test('written into the server render, they paint one button per wallet in that order', () => {
    const html = renderWalletPayButton({ endpoint: '/api/pay', 'order-id': 'A-1', wallets: handler([kh(), epay()]).wallets.join(' ') });
    const parts = [...html.matchAll(/<button part="([^"]+)"[^>]*>(.*?)<\/button>/g)].map(([, part, content]) => [part, content]);
    assert.deepEqual(parts, [
      ['button button-khalti', '<slot name="logo-khalti"></slot>Pay with Khalti'],
      ['button button-esewa', '<slot name="logo-esewa"></slot>Pay with eSewa'],
      // The element's one pay button, hidden while the wallets' show: the element draws the same.
      ['button', '<slot>Pay with wallet</slot>'],
    ]);
    assert.match(html, /<button part="button" class="button" type="button" hidden aria-busy="false"/);
  });
});

describe('the server render of several wallets', () => {
  const buttons = (html: string) => [...html.matchAll(/<button part="button button-(\w+)"[^>]*>(?:<slot name="logo-\w+"><\/slot>)([^<]*)<\/button>/g)].map(([, wallet, text]) => `${wallet}: ${text}`);

  test('follows wallet-order, and speaks Nepali on a Nepali page', () => {
    assert.deepEqual(buttons(renderWalletPayButton({ wallets: 'esewa khalti', 'wallet-order': 'khalti' })), ['khalti: Pay with Khalti', 'esewa: Pay with eSewa']);
    assert.deepEqual(buttons(renderWalletPayButton({ wallets: 'esewa khalti' }, { lang: 'ne-NP' })), ['esewa: इसेवाबाट भुक्तानी गर्नुहोस्', 'khalti: खल्तीबाट भुक्तानी गर्नुहोस्']);
  });

  test('one wallet (or none the element knows) is the one pay button of today', () => {
    const today = renderWalletPayButton({ endpoint: '/api/pay', 'order-id': 'A-1' });
    const strip = (html: string) => html.replace(/ wallets="[^"]*"/, '');
    assert.equal(strip(renderWalletPayButton({ endpoint: '/api/pay', 'order-id': 'A-1', wallets: 'esewa' })), today);
    assert.equal(strip(renderWalletPayButton({ endpoint: '/api/pay', 'order-id': 'A-1', wallets: 'esewa paypal' })), today);
  });

  test('disables every wallet button of a disabled element', () => {
    const html = renderWalletPayButton({ wallets: 'esewa khalti', disabled: true });
    assert.equal(html.match(/<button part="button[^"]*" class="button" type="button"( hidden)? disabled/g)?.length, 3);
  });
});
