/**
 * HTML of the sandbox's pages: the wallet page (the stand-in for the wallet app, on the links origin)
 * and the provider's web payment page (desktop path), in English or Nepali (page-texts.ts). Self-contained
 * (inline CSS, no script, no external asset); every value rendered goes through `escapeHtml`.
 */
import type { SandboxBooking } from './service.js';
import type { CallbackDelivery } from './callbacks.js';
import { FAILING_MPIN, PAYMENT_METHODS, formatTimestamp, type PaymentMethod } from './service.js';
import { SCENARIOS } from './scenarios.js';
import { amountText, escapeHtml } from '../html.js';
import { languageSwitch, pageText, withLanguage, type PageLanguage, type PageTextKey } from '../page-texts.js';

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{margin:0;background:#eef1f6;color:#111}
main{max-width:min(26rem,100%);margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002}
h1{font-size:1.25rem;margin:0 0 .25rem}
.badge{display:inline-block;font-size:.75rem;padding:.1rem .5rem;border-radius:1rem;background:#ffe7a3;color:#5a4300}
.amount{font-size:2rem;font-weight:700;margin:1rem 0 .25rem}
.product{font-size:1.1rem;margin:0 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;font-size:.9rem}
dt{color:#555}dd{margin:0;word-break:break-all}
fieldset{border:1px solid #ccd;border-radius:8px;margin:1rem 0;padding:.75rem}
label{display:block;margin:.35rem 0}
input[type=password]{font-size:1.25rem;letter-spacing:.3rem;width:8rem;padding:.3rem}
button{font-size:1rem;padding:.7rem 1.2rem;border-radius:8px;border:0;cursor:pointer;min-height:44px}
.confirm{background:#1a56db;color:#fff;width:100%}
.cancel{background:#eee;color:#222;width:100%;margin-top:.5rem}
.error{background:#fde8e8;color:#9b1c1c;padding:.5rem .75rem;border-radius:6px}
.hint{font-size:.8rem;color:#666}
.lang{float:right;font-size:.85rem}
table{border-collapse:collapse;font-size:.8rem}td,th{border:1px solid #ccd;padding:.2rem .4rem;text-align:left;word-break:break-all}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}main{background:#1e1e24}dt,.hint{color:#aaa}.cancel{background:#333;color:#eee}}
`;

function layout(title: string, body: string, lang: PageLanguage = 'en', page?: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body${page ? ` data-sandbox-page="${page}"` : ''}>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Which page is shown: the wallet app's stand-in or the provider's web payment page. */
export type PageKind = 'wallet' | 'web';

/** What the payment page needs. */
export interface PaymentPageInput {
  kind: PageKind;
  booking: SandboxBooking;
  /** Path the confirm form posts to. */
  confirmAction: string;
  /** Path the cancel form posts to. */
  cancelAction: string;
  /** A problem with the last submission, shown above the form. */
  error?: string;
  /** The page's language (default English); the forms and the language switch carry it on. */
  lang?: PageLanguage;
}

/** The properties the kit and the sandbox set themselves, named in the pages' words. */
const OWN_PROPERTIES = new Set(['merchant_order', 'sandbox_scenario', 'sandbox_outcome', 'sandbox_callback']);

/** Short words a shopper reads in capitals. */
const CAPITALS = new Set(['id', 'url', 'sku', 'vat', 'pan', 'qr']);

/**
 * The name a page shows for a property key (snake_case, as the service requires): the kit's and the
 * sandbox's own by name (`merchant_order` is the "Order"), any other as words (`delivery_slot` is
 * "Delivery slot", `order_id` "Order ID"). A provider's page shows what the merchant sends, never its keys.
 */
export function propertyLabel(key: string, lang: PageLanguage = 'en'): string {
  if (OWN_PROPERTIES.has(key)) return pageText(lang, `property.${key}` as PageTextKey);
  const words = key.split('_').filter(Boolean).map((word) => (CAPITALS.has(word) ? word.toUpperCase() : word));
  if (words.length === 0) return key;
  const [first = '', ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

/** Keys whose value names what is paid for, shown under the amount as a provider's page does. */
const PRODUCT_KEYS = ['product_name', 'item_name', 'product', 'item'];

function details(booking: SandboxBooking, lang: PageLanguage): string {
  const t = (key: PageTextKey) => escapeHtml(pageText(lang, key));
  const product = PRODUCT_KEYS.find((key) => booking.properties[key]);
  const properties = Object.entries(booking.properties)
    .filter(([key]) => key !== product)
    .map(([key, value]) => `<dt>${escapeHtml(propertyLabel(key, lang))}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  return `<div class="amount">${escapeHtml(amountText(booking.amount))}</div>
${product ? `<p class="product">${escapeHtml(booking.properties[product])}</p>\n` : ''}<dl>
<dt>${t('page.merchant')}</dt><dd>${escapeHtml(booking.product_code)}</dd>
<dt>${t('intent.booking')}</dt><dd>${escapeHtml(booking.booking_id)}</dd>
<dt>${t('intent.reference')}</dt><dd>${escapeHtml(booking.reference_code)}</dd>
${properties}
</dl>`;
}

/** The payment page: details, properties, MPIN, payment method, confirm and cancel. */
export function paymentPage(input: PaymentPageInput): string {
  const { booking, kind } = input;
  const lang = input.lang ?? 'en';
  const t = (key: PageTextKey, values?: Record<string, string>) => escapeHtml(pageText(lang, key, values));
  const title = pageText(lang, kind === 'wallet' ? 'intent.title-wallet' : 'intent.title-web');
  // The page's own address, for the switch: the forms post to it plus `/confirm` or `/cancel`.
  const pagePath = input.confirmAction.replace(/\/confirm(?:\?.*)?$/, '');
  const methods = (Object.keys(PAYMENT_METHODS) as PaymentMethod[])
    .map((value, index) => `<label><input type="radio" name="method" value="${escapeHtml(value)}"${index === 0 ? ' checked' : ''}> ${t(`intent.method-${value}`)}</label>`)
    .join('\n');
  return layout(
    title,
    `${languageSwitch(lang, (other) => withLanguage(pagePath, other), escapeHtml)}
<h1>${escapeHtml(title)}</h1>
<span class="badge">${t('page.sandbox')}</span>
${details(booking, lang)}
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="${escapeHtml(withLanguage(input.confirmAction, lang))}">
<fieldset>
<legend>${t('intent.pay-with')}</legend>
${methods}
</fieldset>
<label for="scenario">${t('page.scenario')}</label> <select id="scenario" name="scenario">
<option value="">${t('page.none')}</option>
${SCENARIOS.map((s) => `<option value="${escapeHtml(s.id)}"${s.id === booking.scenario ? ' selected' : ''}>${escapeHtml(`${s.id} ${s.name}`)}</option>`).join('\n')}
</select>
<label>MPIN <input type="password" name="mpin" inputmode="numeric" pattern="[0-9]{4,6}" minlength="4" maxlength="6" required autocomplete="off"></label>
<p class="hint">${t('intent.hint', { mpin: FAILING_MPIN })}</p>
<button class="confirm" type="submit">${t('intent.confirm')}</button>
</form>
<form method="post" action="${escapeHtml(withLanguage(input.cancelAction, lang))}">
<button class="cancel" type="submit">${t('page.cancel')}</button>
</form>`,
    lang,
    kind,
  );
}

/** A page for a booking that can no longer be paid (already processed or expired), in `lang` (default English). */
export function closedPage(booking: SandboxBooking, expired: boolean, lang: PageLanguage = 'en'): string {
  const target = new URL(booking.redirect_url);
  target.searchParams.set('booking_id', booking.booking_id);
  target.searchParams.set('status', booking.status);
  const reason = expired
    ? pageText(lang, 'intent.expired')
    : pageText(lang, 'intent.processed', { status: booking.status, since: formatTimestamp(booking.updated_at) });
  const title = pageText(lang, 'intent.closed');
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<span class="badge">${escapeHtml(pageText(lang, 'page.sandbox'))}</span>
${details(booking, lang)}
<p class="error" role="alert">${escapeHtml(reason)}</p>
<p><a href="${escapeHtml(target.href)}">${escapeHtml(pageText(lang, 'intent.return'))}</a></p>`,
    lang,
  );
}

/** A plain message page (unknown booking, bad form, bad signature). */
export function messagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<span class="badge">Sandbox</span>\n<p class="error" role="alert">${escapeHtml(message)}</p>`);
}

/** The callback desk: every delivery kept, newest first, with its attempts (the JSON at `/sandbox/callbacks`). */
export function deskPage(deliveries: readonly CallbackDelivery[]): string {
  const rows = deliveries
    .map((d) => {
      const last = d.attempts.at(-1);
      const answer = last ? (last.status !== undefined ? `HTTP ${last.status} ${last.answer ?? ''}` : last.error ?? '') : '';
      return `<tr><td>${escapeHtml(d.id)}</td><td>${escapeHtml(d.booking_id)}</td><td>${escapeHtml(d.status)}</td><td>${escapeHtml(d.scenario ?? '')}</td><td>${escapeHtml(d.state)}</td><td>${d.attempts.length}</td><td>${escapeHtml(answer)}</td><td>${escapeHtml(last?.at ?? d.created_at)}</td></tr>`;
    })
    .join('\n');
  return layout(
    'Callback desk',
    `<h1>Callback desk</h1>
<span class="badge">Sandbox</span>
<p class="hint">${deliveries.length} deliveries, newest first. Dead letters have the state "dead". Resend one with POST /sandbox/callbacks/{id}/resend.</p>
<table><thead><tr><th>Id</th><th>Booking</th><th>Status</th><th>Scenario</th><th>State</th><th>Attempts</th><th>Merchant's answer</th><th>Time</th></tr></thead>
<tbody>
${rows}
</tbody></table>`,
  );
}
