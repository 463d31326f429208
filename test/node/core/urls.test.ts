import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkProviderUrl, checkReturnUrl, parseList, resolveEndpoint, storeListingUrl, storePlatform, withQuery } from '../../../src/core/urls.js';

const allowed = ['links.wallet.test', 'pay.wallet.test', 'localhost:8443'];

describe('checkProviderUrl', () => {
  it('accepts https on an allowed host', () => {
    const check = checkProviderUrl('https://links.wallet.test/pay/B1', allowed);
    assert.equal(check.ok, true);
  });

  const refused: [string, unknown, string][] = [
    ['javascript:', 'javascript:alert(1)', 'scheme'],
    ['JavaScript with spaces and case', 'JaVaScRiPt:alert(1)', 'scheme'],
    ['data:', 'data:text/html,<script>alert(1)</script>', 'scheme'],
    ['blob:', 'blob:https://links.wallet.test/1234', 'scheme'],
    ['file:', 'file:///etc/passwd', 'scheme'],
    ['a custom scheme', 'wallet://pay/B1', 'scheme'],
    ['protocol-relative', '//links.wallet.test/pay/B1', 'unparsable'],
    ['relative path', '/pay/B1', 'unparsable'],
    ['leading whitespace', ' https://links.wallet.test/pay/B1', 'unparsable'],
    ['empty', '', 'unparsable'],
    ['not a string', 42, 'unparsable'],
    ['plain http off loopback', 'http://links.wallet.test/pay/B1', 'insecure'],
    ['user-info trick', 'https://links.wallet.test@evil.test/pay', 'credentials'],
    ['a host not allowed', 'https://evil.test/pay/B1', 'host-not-allowed'],
    ['a look-alike subdomain', 'https://links.wallet.test.evil.test/pay', 'host-not-allowed'],
    ['an allowed host on a port not allowed', 'https://localhost:9999/x', 'host-not-allowed'],
  ];
  for (const [name, url, reason] of refused) {
    it(`refuses ${name}`, () => {
      assert.deepEqual(checkProviderUrl(url, allowed), { ok: false, reason });
    });
  }

  it('accepts plain http only on loopback hosts', () => {
    assert.equal(checkProviderUrl('http://127.0.0.1:8000/pay', ['127.0.0.1']).ok, true);
    assert.equal(checkProviderUrl('http://[::1]:8000/pay', ['[::1]']).ok, true);
    assert.equal(checkProviderUrl('http://localhost:8443/pay', allowed).ok, true);
  });

  it('refuses everything when no host is allowed', () => {
    assert.deepEqual(checkProviderUrl('https://links.wallet.test/pay/B1', []), { ok: false, reason: 'host-not-allowed' });
  });
});

describe('checkReturnUrl', () => {
  const page = 'https://shop.test/checkout';
  it('accepts same-origin, relative included', () => {
    assert.equal(checkReturnUrl('/done', page, []).ok, true);
    assert.equal(checkReturnUrl('https://shop.test/done?x=1', page, []).ok, true);
  });
  it('refuses another origin unless listed', () => {
    assert.deepEqual(checkReturnUrl('https://other.test/done', page, []), { ok: false, reason: 'origin-not-allowed' });
    assert.equal(checkReturnUrl('https://other.test/done', page, ['https://other.test']).ok, true);
  });
  it('refuses protocol-relative tricks and script URLs', () => {
    assert.deepEqual(checkReturnUrl('//evil.test/done', page, []), { ok: false, reason: 'origin-not-allowed' });
    assert.deepEqual(checkReturnUrl('javascript:alert(1)', page, []), { ok: false, reason: 'scheme' });
    assert.deepEqual(checkReturnUrl('https://u:p@shop.test/done', page, []), { ok: false, reason: 'credentials' });
  });
  it("resolves against the document's base URL, but checks the origin against the page", () => {
    const check = checkReturnUrl('done', 'https://shop.test/checkout/pay', [], 'https://shop.test/store/');
    assert.equal(check.ok && check.url.href, 'https://shop.test/store/done');
    // A <base> on another origin does not make its origin a place to send the shopper.
    assert.deepEqual(checkReturnUrl('done', page, [], 'https://cdn.test/assets/'), { ok: false, reason: 'origin-not-allowed' });
    assert.deepEqual(checkReturnUrl('done', page, [], 'not a url'), { ok: false, reason: 'unparsable' });
  });
});

describe('URL helpers', () => {
  it('parses space-separated lists', () => {
    assert.deepEqual(parseList('  A.test   b.test\n'), ['a.test', 'b.test']);
    assert.deepEqual(parseList(null), []);
  });
  it('resolves the endpoint against the page and refuses other schemes', () => {
    assert.equal(resolveEndpoint('/pay', 'https://shop.test/x')?.href, 'https://shop.test/pay');
    assert.equal(resolveEndpoint('javascript:alert(1)', 'https://shop.test/x'), null);
  });
  it('appends query parameters, keeping existing ones', () => {
    assert.equal(withQuery(new URL('https://shop.test/done?a=1'), { booking_id: 'B 1', status: undefined }), 'https://shop.test/done?a=1&booking_id=B+1');
  });
  it('builds store links only from valid identifiers', () => {
    assert.equal(storeListingUrl('android', 'com.wallet.app', '123'), 'https://play.google.com/store/apps/details?id=com.wallet.app');
    assert.equal(storeListingUrl('ios', 'com.wallet.app', '123456'), 'https://apps.apple.com/app/id123456');
    assert.equal(storeListingUrl('ios', 'com.wallet.app', '12ab'), null);
    assert.equal(storeListingUrl('android', 'not a package', '1'), null);
    assert.equal(storeListingUrl('android', '', '1'), null);
    assert.equal(storeListingUrl('other', 'com.wallet.app', '1'), null);
  });
  it('reads the store platform from the user agent', () => {
    assert.equal(storePlatform('Mozilla/5.0 (Linux; Android 14; Pixel 7)'), 'android');
    assert.equal(storePlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)'), 'ios');
    assert.equal(storePlatform('Mozilla/5.0 (X11; Linux x86_64)'), 'other');
  });
});
