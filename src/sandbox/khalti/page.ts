/**
 * HTML of the Khalti emulation's pay page, the stand-in for `payment_url` (Khalti's own is
 * `https://test-pay.khalti.com/?pidx=…`). Self-contained, no script; every value goes through `escapeHtml`.
 */
import { escapeHtml } from '../pages.js';
import type { KhaltiPayment } from './payments.js';
import { TEST_MPIN, TEST_OTP } from './payments.js';
import { KHALTI_SCENARIOS } from './scenarios.js';

const STYLE = `:root{color-scheme:light dark;font-family:system-ui,sans-serif}
main{max-width:min(26rem,100%);margin:2rem auto;padding:1.5rem}
.amount{font-size:2rem;font-weight:700;margin:1rem 0}
label{display:block;margin:.5rem 0}
button{font-size:1rem;padding:.7rem 1.2rem;min-height:44px;width:100%;margin-top:.5rem}
.error{background:#fde8e8;color:#9b1c1c;padding:.5rem .75rem}
.hint{font-size:.8rem;color:#666}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>
${body}
</main></body>
</html>
`;
}

/** `1250` paisa as `Rs 12.50`. */
export function rupeesText(paisa: number): string {
  const [whole = '0', cents = '00'] = (paisa / 100).toFixed(2).split('.');
  return `Rs ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** The pay page: the order's name and amount, Khalti ID, MPIN and OTP, pay and cancel. */
export function khaltiPayPage(payment: KhaltiPayment, action: string, error?: string): string {
  return layout(
    'Khalti: pay',
    `<h1>Pay with Khalti</h1>
<p>${escapeHtml(payment.purchase_order_name)}</p>
<div class="amount">${escapeHtml(rupeesText(payment.amount))}</div>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="pidx" value="${escapeHtml(payment.pidx)}">
<label>Khalti ID <input name="khalti_id" inputmode="numeric" autocomplete="off"></label>
<label>MPIN <input type="password" name="mpin" inputmode="numeric" autocomplete="off"></label>
<label>OTP <input name="otp" inputmode="numeric" autocomplete="one-time-code"></label>
<label>Scenario <select name="scenario"><option value="">None</option>
${KHALTI_SCENARIOS.map((s) => `<option value="${escapeHtml(s.id)}"${s.id === payment.scenario ? ' selected' : ''}>${escapeHtml(`${s.id} ${s.name}`)}</option>`).join('\n')}
</select></label>
<p class="hint">Sandbox: Khalti IDs 9800000000 to 9800000005, MPIN ${TEST_MPIN}, OTP ${TEST_OTP} (Khalti's published test credentials).</p>
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>`,
  );
}

/** A page with a title and one sentence (unknown pidx, a closed payment, a bad request). */
export function khaltiMessagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
