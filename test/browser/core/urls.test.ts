import { expect } from '@open-wc/testing';
import { checkProviderUrl, checkReturnUrl, parseList, resolveEndpoint, storeListingUrl, storePlatform, withQuery } from '../../../src/core/urls.js';

const allowed = ['links.wallet.test', 'pay.wallet.test', 'localhost:8443'];

describe('checkProviderUrl', () => {
  it('accepts https on an allowed host', () => {
    const check = checkProviderUrl('https://links.wallet.test/pay/B1', allowed);
    expect(check.ok).to.equal(true);
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
      expect(checkProviderUrl(url, allowed)).to.deep.equal({ ok: false, reason });
    });
  }

  it('accepts plain http only on loopback hosts', () => {
    expect(checkProviderUrl('http://127.0.0.1:8000/pay', ['127.0.0.1']).ok).to.equal(true);
    expect(checkProviderUrl('http://[::1]:8000/pay', ['[::1]']).ok).to.equal(true);
    expect(checkProviderUrl('http://localhost:8443/pay', allowed).ok).to.equal(true);
  });

  it('refuses everything when no host is allowed', () => {
    expect(checkProviderUrl('https://links.wallet.test/pay/B1', [])).to.deep.equal({ ok: false, reason: 'host-not-allowed' });
  });
});

describe('checkReturnUrl', () => {
  const page = 'https://shop.test/checkout';
  it('accepts same-origin, relative included', () => {
    expect(checkReturnUrl('/done', page, []).ok).to.equal(true);
    expect(checkReturnUrl('https://shop.test/done?x=1', page, []).ok).to.equal(true);
  });
  it('refuses another origin unless listed', () => {
    expect(checkReturnUrl('https://other.test/done', page, [])).to.deep.equal({ ok: false, reason: 'origin-not-allowed' });
    expect(checkReturnUrl('https://other.test/done', page, ['https://other.test']).ok).to.equal(true);
  });
  it('refuses protocol-relative tricks and script URLs', () => {
    expect(checkReturnUrl('//evil.test/done', page, [])).to.deep.equal({ ok: false, reason: 'origin-not-allowed' });
    expect(checkReturnUrl('javascript:alert(1)', page, [])).to.deep.equal({ ok: false, reason: 'scheme' });
    expect(checkReturnUrl('https://u:p@shop.test/done', page, [])).to.deep.equal({ ok: false, reason: 'credentials' });
  });
  it("resolves against the document's base URL, but checks the origin against the page", () => {
    const check = checkReturnUrl('done', 'https://shop.test/checkout/pay', [], 'https://shop.test/store/');
    expect(check.ok && check.url.href).to.equal('https://shop.test/store/done');
    // A <base> on another origin does not make its origin a place to send the shopper.
    expect(checkReturnUrl('done', page, [], 'https://cdn.test/assets/')).to.deep.equal({ ok: false, reason: 'origin-not-allowed' });
    expect(checkReturnUrl('done', page, [], 'not a url')).to.deep.equal({ ok: false, reason: 'unparsable' });
  });
});

describe('URL helpers', () => {
  it('parses space-separated lists', () => {
    expect(parseList('  A.test   b.test\n')).to.deep.equal(['a.test', 'b.test']);
    expect(parseList(null)).to.deep.equal([]);
  });
  it('resolves the endpoint against the page and refuses other schemes', () => {
    expect(resolveEndpoint('/pay', 'https://shop.test/x')?.href).to.equal('https://shop.test/pay');
    expect(resolveEndpoint('javascript:alert(1)', 'https://shop.test/x')).to.equal(null);
  });
  it('appends query parameters, keeping existing ones', () => {
    expect(withQuery(new URL('https://shop.test/done?a=1'), { booking_id: 'B 1', status: undefined })).to.equal(
      'https://shop.test/done?a=1&booking_id=B+1',
    );
  });
  it('builds store links only from valid identifiers', () => {
    expect(storeListingUrl('android', 'com.wallet.app', '123')).to.equal('https://play.google.com/store/apps/details?id=com.wallet.app');
    expect(storeListingUrl('ios', 'com.wallet.app', '123456')).to.equal('https://apps.apple.com/app/id123456');
    expect(storeListingUrl('ios', 'com.wallet.app', '12ab')).to.equal(null);
    expect(storeListingUrl('android', 'not a package', '1')).to.equal(null);
    expect(storeListingUrl('android', '', '1')).to.equal(null);
    expect(storeListingUrl('other', 'com.wallet.app', '1')).to.equal(null);
  });
  it('reads the store platform from the user agent', () => {
    expect(storePlatform('Mozilla/5.0 (Linux; Android 14; Pixel 7)')).to.equal('android');
    expect(storePlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).to.equal('ios');
    expect(storePlatform('Mozilla/5.0 (X11; Linux x86_64)')).to.equal('other');
  });
});
