/**
 * The shopper's part of `payOnPage` (wallet-pay-button/testing) on the intent service's wallet page
 * and web payment page: the scenario picked and the MPIN typed for the action, and the button to press.
 */
import type { PageForm, PayAction, PayOnPageOptions } from '../../testing/pay-on-page.js';
import { FAILING_MPIN } from './service.js';

/** The scenario a failure picks when the test names none: the payment fails at the confirm. */
const FAILING_SCENARIO = 'WPS-002';

/** Fills the wallet or web payment page for `action` and returns the button to press. */
export async function fillIntentForm(form: PageForm, action: PayAction, options: PayOnPageOptions): Promise<string> {
  if (action === 'cancel') return 'button.cancel';
  const scenario = options.scenario ?? (action === 'fail' ? FAILING_SCENARIO : undefined);
  if (scenario) await form.pick(scenario);
  await form.fill('mpin', options.mpin ?? (action === 'fail' ? FAILING_MPIN : '1234'));
  return 'button.confirm';
}
