/**
 * payOnPage's filler of Khalti's pay page, on a form that records what it is asked: a payment types the
 * test ID, MPIN and OTP, a failure pays through KHALTI-004 (Khalti's page has no failure of its own), a
 * cancel types nothing. The page itself is pressed in ../pay-on-page.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillKhaltiForm } from '../../../../src/sandbox/khalti/pay-form.js';
import { recordingForm as recording } from '../recording-form.js';


test('pay types the test ID, MPIN and OTP; fail picks KHALTI-004 first', async () => {
  const paid = recording();
  assert.equal(await fillKhaltiForm(paid.form, 'pay', {}), 'button[value="pay"]');
  assert.deepEqual(paid.done, ['fill khalti_id=9800000000', 'fill mpin=1111', 'fill otp=987654']);
  const failed = recording();
  assert.equal(await fillKhaltiForm(failed.form, 'fail', {}), 'button[value="pay"]');
  assert.deepEqual(failed.done, ['pick KHALTI-004', 'fill khalti_id=9800000000', 'fill mpin=1111', 'fill otp=987654']);
});

test("cancel types nothing; the test's scenario and values win", async () => {
  const cancelled = recording();
  assert.equal(await fillKhaltiForm(cancelled.form, 'cancel', { scenario: 'KHALTI-002' }), 'button[value="cancel"]');
  assert.deepEqual(cancelled.done, []);
  const given = recording();
  await fillKhaltiForm(given.form, 'pay', { scenario: 'KHALTI-002', id: '9800000001', mpin: '2222', otp: '111111' });
  assert.deepEqual(given.done, ['pick KHALTI-002', 'fill khalti_id=9800000001', 'fill mpin=2222', 'fill otp=111111']);
});
