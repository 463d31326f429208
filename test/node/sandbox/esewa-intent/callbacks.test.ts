/**
 * The callback desk on its own: its bounds and resend rules.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_DELIVERIES } from '../../../../src/sandbox/esewa-intent/callbacks.js';
import { resendTargetProblem } from '../../../../src/sandbox/esewa-intent/admin.js';
import { startSandbox } from '../../../../src/sandbox/index.js';
import { book, control, pay, startReceiver } from '../support.js';

describe('the callback desk', () => {
  test('a resend goes to the callback\'s own origin or to loopback, never elsewhere (not an open relay)', () => {
    const delivery = { id: 'CB-1', booking_id: 'B', status: 'SUCCESS', url: 'https://shop.example/api/pay/callback', state: 'delivered' as const, attempts: [], created_at: '' };
    assert.equal(resendTargetProblem(delivery, 'https://shop.example/other'), undefined);
    assert.equal(resendTargetProblem(delivery, 'http://127.0.0.1:8080/cb'), undefined);
    assert.equal(resendTargetProblem(delivery, 'http://localhost:3000/cb'), undefined);
    assert.match(resendTargetProblem(delivery, 'https://evil.example/cb')!, /own origin \(https:\/\/shop.example\) or to a loopback address/);
    assert.match(resendTargetProblem(delivery, 'http://shop.example/cb')!, /own origin/, 'another scheme is another origin');
    assert.match(resendTargetProblem(delivery, 'ftp://127.0.0.1/cb')!, /not an http\(s\) URL/);
    assert.match(resendTargetProblem(delivery, 'http://u:p@127.0.0.1/cb')!, /credentials/);
    assert.match(resendTargetProblem(delivery, 'nope')!, /not an absolute URL/);
  });

  test(`the desk stays bounded: past ${MAX_DELIVERIES} deliveries the oldest finished ones go; an unknown id is IP-404`, async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', callbackRetry: { attempts: 1, baseDelayMs: 0 } });
    try {
      const { body } = await book(sandbox.baseUrl, { key: 'k', product: 'P', callbackUrl: receiver.url });
      await pay(sandbox.baseUrl, body.data!['booking_id']!);
      await sandbox.whenCallbacksSettled();
      for (let round = 0; round < 11; round++) {
        const [newest] = sandbox.callbackDeliveries();
        await Promise.all(Array.from({ length: 100 }, () => control(sandbox.baseUrl, `/sandbox/callbacks/${newest!.id}/resend`, {})));
        await sandbox.whenCallbacksSettled();
      }
      const all = sandbox.callbackDeliveries();
      assert.equal(all.length, MAX_DELIVERIES);
      assert.equal(all.at(-1)!.id, 'CB-102', 'the oldest went first');
      assert.equal((await control(sandbox.baseUrl, '/sandbox/callbacks/CB-1/resend', {})).status, 404);
      assert.equal(receiver.received.length, 1101);
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });
});
