/**
 * The esewa-uat profile on its own.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { redirectorLocation } from '../../../../src/sandbox/esewa-intent/profiles.js';
import { startSandbox } from '../../../../src/sandbox/index.js';
import { book, pay } from '../support.js';

describe('the esewa-uat profile', () => {
  const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';

  test('the redirector: Android gets the intent:// form, a server the marketing site', () => {
    assert.equal(redirectorLocation('BK-1', ANDROID), 'intent://d/BK-1?referralId=BK-1#Intent;scheme=esewa;package=com.f1soft.esewa;end');
    assert.equal(redirectorLocation('BK-1', 'node'), 'https://esewa.com.np/');
  });

  test('string amounts signed as written, custom-scheme redirects, INTENT by default; the links host redirects three times alike and the booking stays payable at /app/', async () => {
    const sandbox = await startSandbox({ profile: 'esewa-uat' });
    const spec = await startSandbox();
    try {
      assert.deepEqual(sandbox.productCodes, ['INTENT']);
      const answer = await book(sandbox.baseUrl, { key: 'sandbox-access-key', product: 'INTENT', amount: '1000', redirectUrl: 'tiffincraft://payment-result' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const id = answer.body.data!['booking_id']!;
      assert.equal(sandbox.getBooking(id)?.amount, 1000);
      const link = answer.body.data!['deeplink']!;
      const locations = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(link, { redirect: 'manual', headers: { 'user-agent': ANDROID } });
        assert.equal(response.status, 302);
        locations.push(response.headers.get('location'));
      }
      assert.deepEqual(new Set(locations).size, 1);
      assert.match(locations[0]!, /^intent:\/\/d\//);
      assert.equal((await fetch(link, { redirect: 'manual', headers: { 'user-agent': 'curl/8.0' } })).headers.get('location'), 'https://esewa.com.np/');
      assert.equal(sandbox.getBooking(id)?.status, 'BOOKED');
      assert.equal((await fetch(`${sandbox.linksUrl}/app/${id}`)).status, 200);
      const paid = await pay(sandbox.baseUrl, id);
      assert.match(paid.headers.get('location') ?? '', /^tiffincraft:\/\/payment-result\?booking_id=/);
      const wrongSignature = await book(sandbox.baseUrl, { key: 'other', product: 'INTENT', amount: '1000' });
      assert.equal(wrongSignature.body.code, 'IP-400');
      for (const unsafe of ['javascript:alert(1)', 'data:text/html,x']) {
        const refused = await book(sandbox.baseUrl, { key: 'sandbox-access-key', product: 'INTENT', redirectUrl: unsafe });
        assert.equal(refused.status, 422, unsafe);
      }

      // The default profile stays the spec: a string amount and an app scheme are refused.
      const strict = await book(spec.baseUrl, { key: 'sandbox-access-key', product: 'SANDBOX', amount: '1000' });
      assert.match(strict.body.error_message!, /"amount" must be a number/);
      const scheme = await book(spec.baseUrl, { key: 'sandbox-access-key', product: 'SANDBOX', redirectUrl: 'tiffincraft://x' });
      assert.equal(scheme.status, 422);
      assert.equal((await fetch(`${spec.linksUrl}/pay/${(await book(spec.baseUrl, { key: 'sandbox-access-key', product: 'SANDBOX' })).body.data!['booking_id']}`)).status, 200);
    } finally {
      await sandbox.close();
      await spec.close();
    }
  });
});
