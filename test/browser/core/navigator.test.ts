import { expect } from '@open-wc/testing';
import { createBrowserNavigator } from '../../../src/core/navigator.js';

/** A window whose location records instead of leaving, over the real document. */
function fakeWindow() {
  const assigned: string[] = [];
  const win = { document, location: { assign: (url: string) => void assigned.push(url) } } as unknown as Window;
  return { win, assigned };
}

describe('browser navigator', () => {
  it('assign and openApp are top-level navigations', () => {
    const { win, assigned } = fakeWindow();
    const nav = createBrowserNavigator(win);
    nav.assign('https://pay.wallet.test/form?x=1');
    nav.openApp('https://links.wallet.test/pay/B1');
    expect(assigned).to.deep.equal(['https://pay.wallet.test/form?x=1', 'https://links.wallet.test/pay/B1']);
  });

  it('posts a hidden top-level form built with DOM APIs (no field is parsed as HTML), then removes it', () => {
    const { win } = fakeWindow();
    const submitted: { action: string; method: string; target: string; hidden: boolean; fields: [string, string][] }[] = [];
    const original = HTMLFormElement.prototype.submit;
    HTMLFormElement.prototype.submit = function (this: HTMLFormElement) {
      expect(this.isConnected).to.equal(true);
      const fields = [...this.querySelectorAll('input')].map((input) => [input.name, input.value] as [string, string]);
      submitted.push({ action: this.action, method: this.method, target: this.target, hidden: this.hidden, fields });
    };
    try {
      createBrowserNavigator(win).postForm('https://pay.wallet.test/form', { booking_id: 'W1', note: '<img src=x onerror=alert(1)>' });
    } finally {
      HTMLFormElement.prototype.submit = original;
    }
    expect(submitted).to.deep.equal([
      { action: 'https://pay.wallet.test/form', method: 'post', target: '_top', hidden: true, fields: [['booking_id', 'W1'], ['note', '<img src=x onerror=alert(1)>']] },
    ]);
    expect(document.querySelector('img[src=x]')).to.equal(null);
    expect(document.querySelectorAll('form').length).to.equal(0);
  });
});
