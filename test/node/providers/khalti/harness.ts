/**
 * Khalti's adapter on the local sandbox, as its tests and the wallets' tests drive it: the adapter on
 * the sandbox's access key, the shopper on Khalti's pay page (a GET of `payment_url`, then its form
 * with the published test credentials), and a memory store that counts what the handler asks of it.
 * Every request fails after {@link LIMIT_MS} instead of hanging.
 */
import type { Sandbox } from '../../../../src/sandbox/index.js';
import { khalti, type KhaltiOptions } from '../../../../src/providers/khalti/adapter.js';
import type { PaymentStore } from '../../../../src/server/store.js';

/** Every request of these tests fails after this long. */
export const LIMIT_MS = 5000;

/** Khalti's published test credentials (providers.md, "Test credentials"). */
export const TEST_SHOPPER = { khalti_id: '9800000000', mpin: '1111', otp: '987654' } as const;

/** The shop's own site, as Khalti asks for it with every payment. */
export const WEBSITE_URL = 'http://127.0.0.1:9/';

/** Khalti's adapter on `sandbox`: its access key, its base, a short timeout. */
export function khaltiOn(sandbox: Sandbox, extra: Partial<KhaltiOptions> = {}) {
  return khalti({ secretKey: sandbox.accessKey, websiteUrl: WEBSITE_URL, baseUrl: sandbox.baseUrl, timeoutMs: 2_000, ...extra });
}

/** A web payment as the element receives it. */
export interface WebPayment {
  url: string;
  method: string;
}

/** Opens the pay page by GET, as the browser follows `web_payment`; fails unless it answers 200. */
export async function openPage(web: WebPayment): Promise<{ html: string; action: string; pidx: string }> {
  if (web.method !== 'GET') throw new Error(`Khalti's page is opened by GET; got ${web.method}`);
  const response = await fetch(web.url, { redirect: 'manual', signal: AbortSignal.timeout(LIMIT_MS) });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`the pay page answered ${response.status}: ${html.slice(0, 200)}`);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const pidx = /name="pidx" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !pidx) throw new Error(`the pay page has no form: ${html.slice(0, 200)}`);
  return { html, action: new URL(action.replaceAll('&amp;', '&'), web.url).href, pidx };
}

/**
 * The shopper on the pay page: pays with the test credentials (or cancels), and gets the return
 * address Khalti sends them back to (the `Location` of the form's 302).
 */
export async function onPage(web: WebPayment, action: 'pay' | 'cancel' = 'pay', form: Record<string, string> = {}): Promise<URL> {
  const page = await openPage(web);
  const fields = action === 'pay' ? { ...TEST_SHOPPER, ...form } : { khalti_id: '', mpin: '', otp: '', ...form };
  const response = await fetch(page.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ pidx: page.pidx, ...fields, action }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(LIMIT_MS),
  });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`the pay page's ${action} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return new URL(location);
}

/** A memory store that counts the calls the handler makes of it: each is one round trip on a server. */
export function counted(store: PaymentStore): { store: PaymentStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}
