/**
 * HTML of the Khalti emulation's pay page, the stand-in for `payment_url` (Khalti's own is
 * `https://test-pay.khalti.com/?pidx=…`), in English or Nepali (../page-texts.ts). Self-contained, no
 * script; every value goes through `escapeHtml`.
 */
import { escapeHtml } from '../html.js';
import { languageSwitch, pageText, withLanguage, type PageLanguage, type PageTextKey } from '../page-texts.js';
import type { KhaltiPayment } from './payments.js';
import { TEST_KHALTI_IDS, TEST_MPIN, TEST_OTP } from './payments.js';
import { KHALTI_SCENARIOS } from './scenarios.js';

const STYLE = `:root{color-scheme:light dark;font-family:system-ui,sans-serif}
main{max-width:min(26rem,100%);margin:2rem auto;padding:1.5rem}
.amount{font-size:2rem;font-weight:700;margin:1rem 0}
label{display:block;margin:.5rem 0}
button{font-size:1rem;padding:.7rem 1.2rem;min-height:44px;width:100%;margin-top:.5rem}
.error{background:#fde8e8;color:#9b1c1c;padding:.5rem .75rem}
.hint{font-size:.8rem;color:#666}
.lang{float:right;font-size:.85rem}`;

function layout(title: string, body: string, lang: PageLanguage = 'en', page?: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body${page ? ` data-sandbox-page="${page}"` : ''}><main>
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

/**
 * The pay page: the order's name and amount, Khalti ID, MPIN and OTP, pay and cancel, in `lang`
 * (default English). `action` is the page's own path (GET shows it with `?pidx=`, its form posts to
 * it); the switch and the form carry the language on.
 */
export function khaltiPayPage(payment: KhaltiPayment, action: string, error?: string, lang: PageLanguage = 'en'): string {
  const t = (key: PageTextKey, values?: Record<string, string>) => escapeHtml(pageText(lang, key, values));
  return layout(
    pageText(lang, 'khalti.title'),
    `${languageSwitch(lang, (other) => withLanguage(`${action}?pidx=${encodeURIComponent(payment.pidx)}`, other), escapeHtml)}
<h1>${t('khalti.heading')}</h1>
<p>${escapeHtml(payment.purchase_order_name)}</p>
<div class="amount">${escapeHtml(rupeesText(payment.amount))}</div>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(withLanguage(action, lang))}">
<input type="hidden" name="pidx" value="${escapeHtml(payment.pidx)}">
<label>${t('khalti.id')} <input name="khalti_id" inputmode="numeric" autocomplete="off"></label>
<label>MPIN <input type="password" name="mpin" inputmode="numeric" autocomplete="off"></label>
<label>OTP <input name="otp" inputmode="numeric" autocomplete="one-time-code"></label>
<label>${t('page.scenario')} <select name="scenario"><option value="">${t('page.none')}</option>
${KHALTI_SCENARIOS.map((s) => `<option value="${escapeHtml(s.id)}"${s.id === payment.scenario ? ' selected' : ''}>${escapeHtml(`${s.id} ${s.name}`)}</option>`).join('\n')}
</select></label>
<p class="hint">${t('khalti.hint', { first: TEST_KHALTI_IDS[0], last: TEST_KHALTI_IDS.at(-1)!, mpin: TEST_MPIN, otp: TEST_OTP })}</p>
<button type="submit" name="action" value="pay">${t('khalti.pay')}</button>
<button type="submit" name="action" value="cancel">${t('page.cancel')}</button>
</form>`,
    lang,
    'khalti',
  );
}

/** A page with a title and one sentence (unknown pidx, a closed payment, a bad request). */
export function khaltiMessagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
