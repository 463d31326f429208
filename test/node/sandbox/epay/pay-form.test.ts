/**
 * payOnPage's filler of eSewa ePay v2's login page, on a form that records what it is asked: a payment
 * types the first published test login (or the test's), a failure and a cancel press their own buttons
 * and type nothing. The page itself is pressed in ../pay-on-page.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillEpayForm } from '../../../../src/sandbox/epay/pay-form.js';
import { recordingForm as recording } from '../recording-form.js';


test('pay types the published test login and presses pay', async () => {
  const paid = recording();
  assert.equal(await fillEpayForm(paid.form, 'pay', {}), 'button.pay');
  assert.deepEqual(paid.done, ['fill esewa_id=9806800001', 'fill password=Nepal@123', 'fill token=123456']);
});

test("the test's scenario and login win; fail and cancel press their buttons and type nothing", async () => {
  const given = recording();
  await fillEpayForm(given.form, 'pay', { scenario: 'EPAY-002', id: '9806800003', password: 'p', token: '1' });
  assert.deepEqual(given.done, ['pick EPAY-002', 'fill esewa_id=9806800003', 'fill password=p', 'fill token=1']);
  for (const action of ['fail', 'cancel'] as const) {
    const other = recording();
    assert.equal(await fillEpayForm(other.form, action, { scenario: 'EPAY-002' }), `button.${action}`);
    assert.deepEqual(other.done, [], action);
  }
});
