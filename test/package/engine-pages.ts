/**
 * What the engine tests' pages share (test/package/*-engines.test.ts): the merchant's pages around a
 * CDN checkout, a recorder the pages keep in the tab's sessionStorage, and the shopper's steps run in
 * a page of any engine (press the element's button, wait for an address, fill and send a provider's
 * form), each with a time limit that fails naming the engine and what was awaited.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { EPAY_TEST_LOGIN } from '../../src/sandbox/epay/rules.js';
import { TEST_MPIN, TEST_OTP } from '../../src/sandbox/khalti/payments.js';
import { WAIT, within, type EnginePage } from './engines.js';
import { checkoutPage, resultPage, type Merchant, type StaticFile } from './support.js';

/** The CDN build's entry, as the merchant server serves dist/. */
export const CDN_ESM = '/dist/cdn/wallet-pay-button.min.js';

/** The shopper's entries on the sandbox's ePay login page: eSewa's published test login (providers.md). */
export const EPAY_LOGIN_FIELDS = { esewa_id: EPAY_TEST_LOGIN.ids[0], password: EPAY_TEST_LOGIN.password, token: EPAY_TEST_LOGIN.token };
/** The shopper's entries on the sandbox's Khalti pay page: Khalti's published test ID, MPIN and OTP (providers.md). */
export const KHALTI_LOGIN_FIELDS = { khalti_id: '9800000000', mpin: TEST_MPIN, otp: TEST_OTP };

/**
 * Kept in the tab's sessionStorage across the merchant's pages: each page's address, the wallet and
 * channel of each booking request, the element's booked and navigate events, and any uncaught error,
 * console error or warning.
 */
export const RECORDER = `<script>
(() => {
  const push = (key, value) => sessionStorage.setItem(key, JSON.stringify([...JSON.parse(sessionStorage.getItem(key) || '[]'), value]));
  push('t:pages', location.href);
  const fetchOf = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = String(input && input.url || input);
    if (url.endsWith('/api/pay/book') && init && typeof init.body === 'string') { const body = JSON.parse(init.body); push('t:book', { wallet: body.wallet, channel: body.channel }); }
    return fetchOf(input, init);
  };
  for (const name of ['booked', 'navigate']) {
    document.addEventListener('wallet-pay-' + name, (event) => push('t:events', { type: name, booking_id: event.detail.booking_id, channel: event.detail.channel, url: event.detail.url, method: event.detail.method }));
  }
  addEventListener('error', (event) => push('t:errors', 'error: ' + event.message));
  addEventListener('unhandledrejection', (event) => push('t:errors', 'unhandled rejection: ' + String(event.reason)));
  for (const level of ['error', 'warn']) {
    const original = console[level].bind(console);
    console[level] = (...args) => { push('t:errors', 'console.' + level + ': ' + args.map(String).join(' ')); original(...args); };
  }
})();
</script>`;

/** One element event as the {@link RECORDER} keeps it (absent fields are the event's own absences). */
export interface RecordedEvent {
  type: 'booked' | 'navigate';
  booking_id?: string;
  channel?: string;
  url?: string;
  method?: string;
}

/** What the {@link RECORDER} kept. */
export interface Recorded {
  pages: string[];
  book: Array<{ wallet?: string; channel: string }>;
  events: RecordedEvent[];
  errors: string[];
}

/** What the tab recorded on the merchant's pages (read on one of them). */
export function recorded(tab: EnginePage): Promise<Recorded> {
  return tab.run(
    `const read = (key) => JSON.parse(sessionStorage.getItem(key) || '[]');
return { pages: read('t:pages'), book: read('t:book'), events: read('t:events'), errors: read('t:errors') };`,
    "read what the merchant's pages recorded",
  );
}

/**
 * The merchant's pages: the CDN checkout (desktop at `/checkout.html`, with `phone` a mobile one at
 * `/phone.html`), the result pages, and `/fresh.html`, which empties the origin's storage (WebKit's one
 * window keeps it from test to test). `recorder`: the {@link RECORDER} on every page but the fresh one.
 */
export function merchantPages(options: { attributes?: string; phone?: boolean; recorder?: boolean; clearLocal?: boolean } = {}): Record<string, StaticFile> {
  const head = options.recorder ? RECORDER : '';
  const checkout = (environment: 'desktop' | 'mobile') =>
    checkoutPage(`${head ? `${head}\n` : ''}<script type="module" src="${CDN_ESM}"></script>`, options.attributes ?? '').replace('environment="desktop"', `environment="${environment}"`);
  return {
    '/checkout.html': { body: checkout('desktop') },
    ...(options.phone ? { '/phone.html': { body: checkout('mobile') } } : {}),
    '/success.html': { body: resultPage('Paid', head) },
    '/failure.html': { body: resultPage('Not paid', head) },
    '/fresh.html': { body: resultPage('Fresh', `<script>sessionStorage.clear();${options.clearLocal ? ' localStorage.clear();' : ''}</script>`) },
  };
}

/** Opens `target` (a path at the merchant, or an address there) in a tab whose storage for the origin was emptied first. */
export async function openFresh(tab: EnginePage, merchant: Merchant, target: string): Promise<void> {
  await tab.open(`${merchant.origin}/fresh.html`);
  await tab.open(new URL(target, merchant.origin).href);
}

/**
 * Polls the page's address until `wanted` holds (every 100 ms, a read limited to 3 s while a
 * navigation is under way); fails after `ms` naming `what` and the last address read.
 */
export async function waitForAddress(tab: EnginePage, wanted: (href: string) => boolean, what: string, ms = 15_000): Promise<string> {
  const end = Date.now() + ms;
  let last = '(not read yet)';
  for (;;) {
    try {
      last = await tab.run<string>('return document.readyState === "complete" ? location.href : "";', `read the address while waiting for ${what}`, 3_000);
      if (last && wanted(last)) return last;
    } catch (error) {
      // A read that met a navigation: the next one reads the new page.
      last = `(read failed: ${(error as Error).message.split('\n')[0]})`;
    }
    if (Date.now() > end) throw new Error(`${tab.engine}: ${what}: not within ${ms} ms; the tab was last at ${last}`);
    await sleep(100);
  }
}

/**
 * Presses the element's button (`wallet`'s, where the page offers several) once it takes a press (not
 * busy: a press while busy is ignored, as on a way back where the element first asks about its kept
 * booking), after the script has answered: the element books and leaves the page.
 */
export function press(tab: EnginePage, wallet?: 'esewa' | 'khalti'): Promise<void> {
  const name = wallet ? `button-${wallet}` : 'button';
  return tab.run(
    `${WAIT}
const button = await wait(() => {
  const b = part('${name}');
  return b && !b.disabled && el.getAttribute('aria-busy') !== 'true' && !el.shadowRoot.querySelector('[aria-busy="true"]') && b;
}, 'the ${wallet ?? 'pay'} button, not busy (status: ' + statusText() + ')');
setTimeout(() => button.click(), 0);`,
    `press the ${wallet ?? 'pay'} button`,
  );
}

/** In-page: waits (10 s at most) for the form `form` on the page; the script's result is `expression` over it. */
function onForm<T>(tab: EnginePage, form: string, expression: string, what: string): Promise<T> {
  return tab.run<T>(
    `const end = Date.now() + 10000;
let form;
while (!(form = document.querySelector(${JSON.stringify(form)}))) {
  if (Date.now() > end) throw new Error('timed out waiting: ' + ${JSON.stringify(what)});
  await new Promise((r) => setTimeout(r, 50));
}
${expression}`,
    what,
  );
}

/** On a provider's page: waits for `form`, fills `fields`, and presses `button` once the script has answered (the page is left at once). */
export function fillAndPress(tab: EnginePage, form: string, fields: Record<string, string>, button: string, what: string): Promise<void> {
  return onForm(
    tab,
    form,
    `for (const [name, value] of Object.entries(${JSON.stringify(fields)})) form.querySelector('[name="' + name + '"]').value = value;
setTimeout(() => form.querySelector(${JSON.stringify(button)}).click(), 0);`,
    what,
  );
}

/** On the sandbox's ePay login page: the transaction it shows (`dt` Transaction's value), read before the shopper pays. */
export function epayTransactionShown(tab: EnginePage): Promise<string> {
  return onForm(
    tab,
    'form[action$="/pay"]',
    `const transaction = [...document.querySelectorAll('dt')].find((dt) => dt.textContent.trim() === 'Transaction');
return transaction ? transaction.nextElementSibling.textContent.trim() : '';`,
    'the ePay login form',
  );
}

/** The absolute action of `form` on a provider's page. */
export function formAction(tab: EnginePage, form: string): Promise<string> {
  return onForm(tab, form, 'return form.action;', `the pay form ${form}`);
}

/** A control of the merchant's sandbox (`/sandbox/...`): its JSON, failing unless it answers 200 within 5 s. */
export async function sandboxControl<T>(merchant: Merchant, path: string): Promise<T> {
  const response = await within(fetch(`${merchant.sandbox.baseUrl}${path}`), 5_000, `the sandbox's ${path}`);
  assert.equal(response.status, 200, `the sandbox knows ${path}`);
  return (await response.json()) as T;
}
