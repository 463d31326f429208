/**
 * payOnPage's filler of the intent service's pages, on a form that records what it is asked: a payment
 * types the accepted MPIN, a failure picks WPS-002 and types the failing MPIN, a cancel touches nothing,
 * and what the test gives (scenario, MPIN) wins. The pages themselves are pressed in ../pay-on-page.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillIntentForm } from '../../../../src/sandbox/esewa-intent/pay-form.js';
import type { PageForm } from '../../../../src/testing/pay-on-page.js';
import { recordingForm as recording } from '../recording-form.js';


test('pay types the accepted MPIN and presses confirm; fail picks WPS-002 and types the failing MPIN', async () => {
  const paid = recording();
  assert.equal(await fillIntentForm(paid.form, 'pay', {}), 'button.confirm');
  assert.deepEqual(paid.done, ['fill mpin=1234']);
  const failed = recording();
  assert.equal(await fillIntentForm(failed.form, 'fail', {}), 'button.confirm');
  assert.deepEqual(failed.done, ['pick WPS-002', 'fill mpin=0000']);
});

test("cancel presses cancel and fills nothing; the test's scenario and MPIN win", async () => {
  const cancelled = recording();
  assert.equal(await fillIntentForm(cancelled.form, 'cancel', { mpin: '9999' }), 'button.cancel');
  assert.deepEqual(cancelled.done, []);
  const given = recording();
  await fillIntentForm(given.form, 'fail', { scenario: 'WPS-007', mpin: '4321' });
  assert.deepEqual(given.done, ['pick WPS-007', 'fill mpin=4321']);
});

test("a picker's refusal is the filler's failure", async () => {
  const form: PageForm = { fill: async () => undefined, pick: async (scenario) => Promise.reject(new Error(`no scenario "${scenario}"`)) };
  await assert.rejects(fillIntentForm(form, 'pay', { scenario: 'WPS-999' }), /^Error: no scenario "WPS-999"$/);
});
