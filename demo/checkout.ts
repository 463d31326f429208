import '../src/define.js';
import { detectEnvironment, isEnvironmentSetting } from '../src/core/environment.js';
import { CATALOG, findItem, orderIdOf } from './catalog.js';
import { followServerLog, log } from './log.js';

const button = document.querySelector('wallet-pay-button');
const items = document.querySelector<HTMLFieldSetElement>('#items');
const total = document.querySelector<HTMLOutputElement>('#total');
const detected = document.querySelector<HTMLElement>('#detected');
if (!button || !items || !total || !detected) throw new Error('The checkout page is missing an element.');

const money = new Intl.NumberFormat('en-NP', { style: 'currency', currency: 'NPR', maximumFractionDigits: 0 });
const ITEM_KEY = 'playground:item';
const ENV_KEY = 'playground:environment';
const CHECKOUT_KEY = 'playground:checkout';

// This tab's checkout number: the same across reloads and the return from the provider, new in
// another tab, so two shoppers (or two tabs) are two orders. A link the shop sent names its checkout
// (`?checkout=`): opened in a fresh tab, it is the same order, which the element shows paid if it is.
const linked = new URLSearchParams(location.search).get('checkout');
const checkout =
  (linked && /^[a-z0-9]{8,16}$/.test(linked) ? linked : null) ?? sessionStorage.getItem(CHECKOUT_KEY) ?? Math.random().toString(36).slice(2, 10).padEnd(8, '0');
sessionStorage.setItem(CHECKOUT_KEY, checkout);

for (const item of CATALOG) {
  const label = document.createElement('label');
  label.className = 'item';
  const radio = Object.assign(document.createElement('input'), { type: 'radio', name: 'item', value: item.id });
  const title = document.createElement('span');
  title.textContent = item.title;
  const price = document.createElement('strong');
  price.textContent = money.format(item.amount);
  const description = document.createElement('small');
  description.textContent = item.description;
  label.append(radio, title, price, description);
  items.append(label);
}

function selectItem(id: string): void {
  const item = findItem(id) ?? CATALOG[0]!;
  button!.setAttribute('order-id', orderIdOf(item.id, checkout));
  total!.textContent = money.format(item.amount);
  const radio = items!.querySelector<HTMLInputElement>(`input[value="${item.id}"]`);
  if (radio) radio.checked = true;
  sessionStorage.setItem(ITEM_KEY, item.id);
}

function selectEnvironment(value: string): void {
  const setting = isEnvironmentSetting(value) ? value : 'auto';
  button!.setAttribute('environment', setting);
  const radio = document.querySelector<HTMLInputElement>(`input[name="environment"][value="${setting}"]`);
  if (radio) radio.checked = true;
  localStorage.setItem(ENV_KEY, setting);
}

const WEB_KEY = 'playground:web-checkout';
/**
 * The endpoint whose handler lists ePay v2 first with Khalti beside it (its desktops pay on eSewa's or
 * Khalti's web checkout, a button each), or the intent service first (eSewa alone).
 */
function selectWebCheckout(value: string): void {
  const setting = value === 'epay' ? 'epay' : 'intent';
  button!.setAttribute('endpoint', setting === 'epay' ? '/api/pay-epay' : '/api/pay');
  // The wallets go with the endpoint: only the /api/pay-epay handler lists Khalti.
  if (setting === 'epay') button!.setAttribute('wallets', 'esewa khalti');
  else button!.removeAttribute('wallets');
  const radio = document.querySelector<HTMLInputElement>(`input[name="web-checkout"][value="${setting}"]`);
  if (radio) radio.checked = true;
  localStorage.setItem(WEB_KEY, setting);
}

function showDetected(): void {
  detected!.textContent = detectEnvironment({
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints,
    innerWidth: window.innerWidth,
  });
}

items.addEventListener('change', (event) => selectItem((event.target as HTMLInputElement).value));
document.querySelector('#environment')?.addEventListener('change', (event) => {
  selectEnvironment((event.target as HTMLInputElement).value);
});
document.querySelector('#web-checkout')?.addEventListener('change', (event) => {
  selectWebCheckout((event.target as HTMLInputElement).value);
});
window.addEventListener('resize', showDetected);

// The return address names the item too (a fresh browser, where the wallet's app sent the shopper back).
const linkedItem = new URLSearchParams(location.search).get('item');
selectItem((linked && findItem(linkedItem) ? linkedItem : null) ?? sessionStorage.getItem(ITEM_KEY) ?? CATALOG[0]!.id);
selectEnvironment(localStorage.getItem(ENV_KEY) ?? 'auto');
// `?web=epay` in the address picks the web checkout too (a link, a test).
selectWebCheckout(new URLSearchParams(location.search).get('web') ?? localStorage.getItem(WEB_KEY) ?? 'intent');
showDetected();
followServerLog();

/** A host app's bridge, as docs/webview.md's listener looks for one (Android, iOS, Flutter, React Native). */
function hostBridge(): boolean {
  const w = window as unknown as Record<string, unknown> & { webkit?: { messageHandlers?: Record<string, unknown> } };
  return !!(w['WalletPayBridge'] ?? w['WalletPayChannel'] ?? w['ReactNativeWebView'] ?? w.webkit?.messageHandlers);
}

// The playground plays the host app only when asked (the switch on webview) or when a bridge says one
// is there, as a shop's own app takes the payment by calling preventDefault(). Any other WebView (an
// app that merely opened the link) takes nothing: the element offers its in-app panel, as on a shop's page.
button.addEventListener('wallet-pay-webview', (event) => {
  if (button.getAttribute('environment') !== 'webview' && !hostBridge()) return;
  event.preventDefault();
  log('element', 'the host app took the payment (preventDefault on wallet-pay-webview)');
});

// Every event the element fires goes to the log, with its detail; the funnel's steps with their times.
for (const name of ['wallet-pay-shown', 'wallet-pay-pressed', 'wallet-pay-left', 'wallet-pay-returned', 'wallet-pay-confirmed', 'wallet-pay-abandoned']) {
  button.addEventListener(name, (event) => {
    const { attempt_id, elapsed_ms, ...rest } = (event as CustomEvent).detail as { attempt_id: string; elapsed_ms: number };
    log('element', `${name.slice('wallet-pay-'.length)} +${elapsed_ms} ms (attempt ${attempt_id.slice(0, 8)}) ${JSON.stringify(rest)}`);
  });
}
for (const name of [
  'wallet-pay-booked',
  'wallet-pay-navigate',
  'wallet-pay-webview',
  'wallet-pay-pending',
  'wallet-pay-success',
  'wallet-pay-failure',
  'wallet-pay-error',
  'wallet-pay-cancel',
]) {
  button.addEventListener(name, (event) => {
    log('element', `${name} ${JSON.stringify((event as CustomEvent).detail ?? {})}`);
  });
}

// The hand-off: while the element shows a code, a link opens its deeplink in a phone-sized window, as
// a phone that scanned the code would (the code's link is the kept booking's deeplink).
const phoneSim = document.querySelector<HTMLElement>('#phone-sim');
const phoneLink = document.querySelector<HTMLAnchorElement>('#phone-link');
async function showPhoneLink(): Promise<void> {
  await button!.updateComplete;
  const { name, booking } = button!.paymentState;
  const open = !!booking?.handoff && !!booking.deeplink && (name === 'handoff' || name === 'stalled');
  if (phoneSim) phoneSim.hidden = !open;
  if (phoneLink && open) phoneLink.href = booking.deeplink!;
}
for (const name of ['wallet-pay-booked', 'wallet-pay-pending', 'wallet-pay-success', 'wallet-pay-failure', 'wallet-pay-cancel', 'wallet-pay-error']) {
  button.addEventListener(name, () => void showPhoneLink());
}
phoneLink?.addEventListener('click', (event) => {
  event.preventDefault();
  window.open(phoneLink.href, 'wallet-phone', 'popup,width=412,height=860');
});
