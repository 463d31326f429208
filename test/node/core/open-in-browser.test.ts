import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_ESCAPES, browserWay } from '../../../src/core/open-in-browser.js';
import { IN_APP_USER_AGENTS } from '../../fixtures/user-agents.js';
import { IN_APP_BROWSERS } from '../../../src/core/in-app-browsers.js';

const FACEBOOK_ANDROID = IN_APP_USER_AGENTS.find((ua) => ua.app === 'facebook' && ua.platform === 'android')!.userAgent;
const FACEBOOK_IOS = IN_APP_USER_AGENTS.find((ua) => ua.app === 'facebook' && ua.platform === 'ios')!.userAgent;

test('every known in-app browser has its way out on Android and on iOS', () => {
  assert.deepEqual(Object.keys(BROWSER_ESCAPES).sort(), IN_APP_BROWSERS.map((app) => app.id).sort());
});

test("every way out keeps the address's scheme, path, query and its fragment, which carries the payment", () => {
  const address = 'http://shop.test:8080/pay?o=1#wallet-pay=%7B%22booking_id%22%3A%22B1%22%7D';
  assert.deepEqual(browserWay(address, FACEBOOK_ANDROID), {
    kind: 'link',
    href: 'intent://shop.test:8080/pay?o=1#wallet-pay=%7B%22booking_id%22%3A%22B1%22%7D#Intent;scheme=http;end',
    url: address,
  });
  assert.deepEqual(browserWay('https://shop.test/pay#wallet-pay=x', FACEBOOK_IOS), { kind: 'link', href: 'x-safari-https://shop.test/pay#wallet-pay=x', url: 'https://shop.test/pay#wallet-pay=x' });
});

test("a fragment of the page's own is dropped: only a continuation's travels", () => {
  assert.deepEqual(browserWay('https://shop.test/pay?o=1#reviews', FACEBOOK_ANDROID), {
    kind: 'link',
    href: 'intent://shop.test/pay?o=1#Intent;scheme=https;end',
    url: 'https://shop.test/pay?o=1',
  });
  assert.deepEqual(browserWay('https://shop.test/pay#wallet-payment', FACEBOOK_IOS), { kind: 'link', href: 'x-safari-https://shop.test/pay', url: 'https://shop.test/pay' });
});

test("an intent's data is the address with its fragment, read as Android reads it (up to the last #)", () => {
  const address = 'https://shop.test/pay?o=1#wallet-pay=%7B%7D';
  const way = browserWay(address, FACEBOOK_ANDROID);
  assert.equal(way?.kind, 'link');
  const href = way.kind === 'link' ? way.href : '';
  // Intent.parseUri: the data is what comes before the last '#', and `scheme=` replaces `intent:`.
  const last = href.lastIndexOf('#');
  assert.ok(href.startsWith('#Intent;', last), href);
  const scheme = /;scheme=([^;]+);/.exec(href.slice(last))![1];
  assert.equal(`${scheme}:${href.slice('intent:'.length, last)}`, address);
});

test("a browser that is no known in-app one, or a desktop's, gets the address to copy; a page that is not http(s) gets nothing", () => {
  const chrome = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
  assert.deepEqual(browserWay('https://shop.test/pay', chrome), { kind: 'copy', url: 'https://shop.test/pay' });
  assert.deepEqual(browserWay('https://shop.test/pay', 'Mozilla/5.0 (Windows NT 10.0) [FBAN/FBIOS]'), { kind: 'copy', url: 'https://shop.test/pay' });
  for (const page of ['javascript:alert(1)', 'not a url', 'https://u:p@shop.test/']) assert.equal(browserWay(page, FACEBOOK_ANDROID), null, page);
});
