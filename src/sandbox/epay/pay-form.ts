/**
 * The shopper's part of `payOnPage` (wallet-pay-button/testing) on eSewa ePay v2's login page: the
 * published test login typed unless the test gives its own, and the button to press.
 */
import type { PageForm, PayAction, PayOnPageOptions } from '../../testing/pay-on-page.js';
import { EPAY_TEST_LOGIN } from './rules.js';

/** Fills the login page for `action` (a failure and a cancel have buttons of their own) and returns the button to press. */
export async function fillEpayForm(form: PageForm, action: PayAction, options: PayOnPageOptions): Promise<string> {
  if (action !== 'pay') return `button.${action}`;
  if (options.scenario) await form.pick(options.scenario);
  await form.fill('esewa_id', options.id ?? EPAY_TEST_LOGIN.ids[0]);
  await form.fill('password', options.password ?? EPAY_TEST_LOGIN.password);
  await form.fill('token', options.token ?? EPAY_TEST_LOGIN.token);
  return 'button.pay';
}
