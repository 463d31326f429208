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
      // Read as attributes: a field may be named like any member of the form.
      const attribute = (name: string) => this.getAttribute(name)!;
      submitted.push({ action: attribute('action'), method: attribute('method').toLowerCase(), target: attribute('target'), hidden: this.hasAttribute('hidden'), fields });
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

  it('posts fields named like the form\'s own members (submit, action, method, remove, target)', () => {
    const { win } = fakeWindow();
    const fields = { submit: 'yes', action: 'pay', method: 'wallet', remove: 'no', target: 'x', booking_id: 'W1' };
    const seen: { action: string; method: string; fields: Record<string, string> }[] = [];
    const original = HTMLFormElement.prototype.submit;
    HTMLFormElement.prototype.submit = function (this: HTMLFormElement) {
      const values = Object.fromEntries([...this.querySelectorAll('input')].map((input) => [input.name, input.value]));
      seen.push({ action: this.getAttribute('action')!, method: this.getAttribute('method')!, fields: values });
    };
    try {
      createBrowserNavigator(win).postForm('https://pay.wallet.test/form', fields);
    } finally {
      HTMLFormElement.prototype.submit = original;
    }
    expect(seen).to.deep.equal([{ action: 'https://pay.wallet.test/form', method: 'POST', fields }]);
    expect(document.querySelectorAll('form').length).to.equal(0);
  });
});
