/**
 * The payment code's own functions (payment.ts): the notices of a `wallets` or `wallet-order` name the
 * element cannot show. The payment's flow, panels and glue are tested through the element
 * (wallet-pay-button/, chunk.test.ts, settings-controller.test.ts).
 */
import { expect } from '@open-wc/testing';
import { walletNotices } from '../../../src/element/payment.js';

describe('walletNotices', () => {
  it('says nothing of wallets the element knows, in any order, and of an order naming only those', () => {
    expect(walletNotices('esewa khalti', 'khalti')).to.deep.equal([]);
    expect(walletNotices('khalti esewa', null)).to.deep.equal([]);
    expect(walletNotices(null, null)).to.deep.equal([]);
  });

  it('names each wallet it has no words for, once per name written, with the wallets it knows', () => {
    const notices = walletNotices('esewa paypal fonepay', null);
    expect(notices.map((notice) => [notice.kind, 'name' in notice ? notice.name : undefined])).to.deep.equal([
      ['wallet', 'paypal'],
      ['wallet', 'fonepay'],
    ]);
    expect(notices[0]).to.have.property('known').that.includes('esewa').and.includes('khalti');
  });

  it('names each wallet-order name the offered wallets leave out, with what is offered', () => {
    const notices = walletNotices('esewa', 'khalti esewa');
    expect(notices).to.have.length(1);
    expect(notices[0]).to.include({ kind: 'wallet-order', name: 'khalti' });
    expect(notices[0]).to.have.property('offered').that.deep.equals(['esewa']);
  });

  it('an unknown name in both lists is said for each list', () => {
    const notices = walletNotices('esewa paypal', 'paypal');
    expect(notices.map((notice) => notice.kind)).to.deep.equal(['wallet', 'wallet-order']);
  });
});
