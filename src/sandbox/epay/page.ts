/**
 * The ePay v2 login page the form POST answers: the merchant's product code and amount (ePay's form
 * carries no product name), the published test eSewa IDs, password and token, and three ways out
 * (pay, fail, cancel), in English or Nepali (../page-texts.ts). Plain HTML forms, no script, inline
 * CSS only (served under the sandbox pages' strict headers); every value rendered goes through `escapeHtml`.
 */
import { amountText, escapeHtml } from '../html.js';
import { languageSwitch, pageText, withLanguage, type PageLanguage, type PageTextKey } from '../page-texts.js';
import type { EpayTransaction } from './ledger.js';
import { EPAY_SESSION_PREFIX, EPAY_TEST_LOGIN } from './rules.js';
import { EPAY_SCENARIOS } from './scenarios.js';

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{margin:0;background:#eef6ee;color:#111}
main{max-width:min(26rem,100%);margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002}
h1{font-size:1.25rem;margin:0 0 .25rem}
.badge{display:inline-block;font-size:.75rem;padding:.1rem .5rem;border-radius:1rem;background:#ffe7a3;color:#5a4300}
.amount{font-size:2rem;font-weight:700;margin:1rem 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;font-size:.9rem}dt{color:#555}dd{margin:0;word-break:break-all}
label{display:block;margin:.5rem 0}input,select{font-size:1rem;padding:.3rem;width:100%;box-sizing:border-box}
button{font-size:1rem;padding:.7rem 1.2rem;border-radius:8px;border:0;cursor:pointer;min-height:44px;width:100%;margin-top:.5rem}
.pay{background:#41a124;color:#fff}.other{background:#eee;color:#222}
.error{background:#fde8e8;color:#9b1c1c;padding:.5rem .75rem;border-radius:6px}
.hint{font-size:.8rem;color:#666}
.lang{float:right;font-size:.85rem}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}main{background:#1e1e24}dt,.hint{color:#aaa}.other{background:#333;color:#eee}}
`;

/** A whole page around `body`, in `lang` (default English); `top` goes above the title (the language switch). */
export function epayLayout(title: string, body: string, lang: PageLanguage = 'en', top = ''): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body${top ? ' data-sandbox-page="epay"' : ''}>
<main>
${top ? `${top}\n` : ''}<h1>${escapeHtml(title)}</h1>
<span class="badge">${escapeHtml(pageText(lang, 'page.sandbox'))}</span>
${body}
</main>
</body>
</html>
`;
}

/**
 * The login page of an open session, in `lang` (default English); `error` says what was wrong with
 * the last try. The page is reached by the merchant's form POST; its switch opens the session's page
 * (`GET /epay/session/{id}`) in the other language, and its forms carry the language on.
 */
export function epayLoginPage(transaction: EpayTransaction, error?: string, lang: PageLanguage = 'en'): string {
  const t = (key: PageTextKey, values?: Record<string, string>) => escapeHtml(pageText(lang, key, values));
  const action = `${EPAY_SESSION_PREFIX}${encodeURIComponent(transaction.session_id)}`;
  const form = (end: string) => escapeHtml(withLanguage(`${action}/${end}`, lang));
  const options = EPAY_SCENARIOS.map(
    (s) => `<option value="${escapeHtml(s.id)}"${s.id === transaction.scenario ? ' selected' : ''}>${escapeHtml(`${s.id} ${s.name}`)}</option>`,
  ).join('\n');
  const hint = { ids: EPAY_TEST_LOGIN.ids.join(', '), password: EPAY_TEST_LOGIN.password, token: EPAY_TEST_LOGIN.token };
  return epayLayout(
    pageText(lang, 'epay.title'),
    `<div class="amount">${escapeHtml(amountText(transaction.total_paisa / 100))}</div>
<dl>
<dt>${t('page.merchant')}</dt><dd>${escapeHtml(transaction.product_code)}</dd>
<dt>${t('epay.transaction')}</dt><dd>${escapeHtml(transaction.transaction_uuid)}</dd>
</dl>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${form('pay')}">
<label>${t('epay.id')} <input name="esewa_id" inputmode="numeric" autocomplete="off" required></label>
<label>${t('epay.password')} <input type="password" name="password" autocomplete="off" required></label>
<label>${t('epay.token')} <input name="token" inputmode="numeric" pattern="[0-9]{6}" autocomplete="off" required></label>
<label>${t('page.scenario')} <select name="scenario"><option value="">${t('page.none')}</option>
${options}
</select></label>
<button class="pay" type="submit">${t('epay.pay')}</button>
</form>
<form method="post" action="${form('fail')}"><button class="other fail" type="submit">${t('epay.fail')}</button></form>
<form method="post" action="${form('cancel')}"><button class="other cancel" type="submit">${t('page.cancel')}</button></form>
<p class="hint">${t('epay.hint', hint)}</p>`,
    lang,
    languageSwitch(lang, (other) => withLanguage(action, other), escapeHtml),
  );
}

/** A page saying why a session cannot be used (unknown, finished, expired). */
export function epayMessagePage(title: string, message: string): string {
  return epayLayout(title, `<p class="error" role="alert">${escapeHtml(message)}</p>`);
}
