/**
 * The shopper's part of `payOnPage` (wallet-pay-button/testing) on Khalti's pay page: the scenario
 * picked, the test ID, MPIN and OTP typed, and the button to press.
 */
import type { PageForm, PayAction, PayOnPageOptions } from '../../testing/pay-on-page.js';
import { TEST_MPIN, TEST_OTP } from './payments.js';

/** Khalti's page has no failure of its own: a failure pays through this scenario (Pending, Failed 2 min later). */
const FAILING_SCENARIO = 'KHALTI-004';

/** Fills the pay page for `action` and returns the button to press. */
export async function fillKhaltiForm(form: PageForm, action: PayAction, options: PayOnPageOptions): Promise<string> {
  if (action === 'cancel') return 'button[value="cancel"]';
  const scenario = options.scenario ?? (action === 'fail' ? FAILING_SCENARIO : undefined);
  if (scenario) await form.pick(scenario);
  await form.fill('khalti_id', options.id ?? '9800000000');
  await form.fill('mpin', options.mpin ?? TEST_MPIN);
  await form.fill('otp', options.otp ?? TEST_OTP);
  return 'button[value="pay"]';
}
