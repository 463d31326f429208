/**
 * The element's settings as Lit declares them (button-properties.ts): each attribute reaches its
 * property, the number of `booking-timeout` stays the text written when it is none (the set-up check
 * names it), and `disabled`, `variant` and `full-width` live in their attributes, which nothing writes
 * at render time.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/define.js';
import type { WalletPayButton } from '../../../src/element/wallet-pay-button.js';
import { ButtonProperties } from '../../../src/element/button-properties.js';

describe('<wallet-pay-button> properties', () => {
  it('is a ButtonProperties, and each kebab-case attribute reaches its camel-case property', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button
      endpoint="/api/pay"
      order-id="A-1"
      success-url="/done"
      failure-url="/failed"
      allowed-hosts="pay.wallet.test"
      return-origins="https://shop.test"
      android-package="com.wallet"
      ios-app-id="123"
      phone-handoff="off"
      wallets="esewa khalti"
      wallet-order="khalti"
      allow-framed
    ></wallet-pay-button>`);
    expect(el).to.be.instanceOf(ButtonProperties);
    expect([el.endpoint, el.orderId, el.successUrl, el.failureUrl, el.allowedHosts, el.returnOrigins]).to.deep.equal(['/api/pay', 'A-1', '/done', '/failed', 'pay.wallet.test', 'https://shop.test']);
    expect([el.androidPackage, el.iosAppId, el.phoneHandoff, el.wallets, el.walletOrder, el.allowFramed]).to.deep.equal(['com.wallet', '123', 'off', 'esewa khalti', 'khalti', true]);
  });

  it('booking-timeout is a number, or the text written when it is none; unset, undefined', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button booking-timeout="4000"></wallet-pay-button>`);
    expect(el.bookingTimeout).to.equal(4000);
    el.setAttribute('booking-timeout', 'soon');
    expect(el.bookingTimeout).to.equal('soon');
    el.setAttribute('booking-timeout', ' ');
    expect(el.bookingTimeout).to.equal(' ');
    el.removeAttribute('booking-timeout');
    expect(el.bookingTimeout).to.equal(undefined);
  });

  it('disabled, variant and fullWidth read and write their attributes; an unset variant is the default, not "undefined"', async () => {
    const el = await fixture<WalletPayButton>(html`<wallet-pay-button></wallet-pay-button>`);
    expect(el.getAttributeNames()).to.deep.equal([]);
    expect([el.disabled, el.variant, el.fullWidth]).to.deep.equal([false, 'dark', false]);
    el.disabled = true;
    el.variant = 'outline';
    el.fullWidth = true;
    expect([el.hasAttribute('disabled'), el.getAttribute('variant'), el.hasAttribute('full-width')]).to.deep.equal([true, 'outline', true]);
    el.variant = undefined;
    el.disabled = false;
    el.fullWidth = false;
    await el.updateComplete;
    expect(el.getAttributeNames()).to.deep.equal([]);
    expect(el.variant).to.equal('dark');
  });
});
