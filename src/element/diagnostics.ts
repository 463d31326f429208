/**
 * Set-up mistakes that show only once the element meets the shop's server or the provider: a return
 * page whose element did not make the payment in its address, an `endpoint` that is not the payment
 * handler, an `allowed-hosts` without the host the service answered with. The shopper already gets a
 * way forward from the flow; these tell the developer why, in the console, once per page (through the
 * set-up check's report, whose sentences load only when there is something to say).
 */
import type { FlowEvent } from '../core/flow/state.js';
import { isReturnPage, sessionStorageOf } from '../core/kept.js';
import { report } from './setup-check.js';

const returnChecked = new WeakSet<HTMLElement>();

/**
 * On a return address (a provider's parameters in the page's address: the server's `redirectUrl`),
 * the element can verify and route only a booking it kept for its own endpoint and order. Another
 * order's element, or a tab that kept nothing (the app came back in another browser), finds the
 * order's state only by `/order`: the set-up sentences' chunk, loaded on a return address alone,
 * reads the address and the tab's bookings, and says what the page must do when it could not tell.
 */
export function diagnoseReturnPage(host: HTMLElement, storageKey = ''): void {
  // Once per element: after the flow has routed, its kept booking is gone and the address still says the same.
  if (returnChecked.has(host)) return;
  returnChecked.add(host);
  const win = host.ownerDocument.defaultView;
  if (isReturnPage(win)) void report([{ kind: 'return-page', query: win!.location.search, storage: sessionStorageOf(win), storageKey }]);
}

/**
 * Watches the answers of the shop's server: the payment handler always answers JSON, so an HTML page
 * or a plain-text 404 (or 405, or a 2xx page) means `endpoint` names something else (a page route, a
 * missing mount, a typo). A 5xx page is a gateway's while the shop is down or restarting: an outage.
 */
export function watchEndpoint(answer: Promise<Response>, url: string, endpoint: string | null): Promise<Response> {
  return answer.then((response) => {
    const type = response.headers.get('content-type') ?? '';
    // A redirect is opaque here and the booking client names it itself.
    if (response.type === 'opaqueredirect' || response.status >= 500 || /\bjson\b/i.test(type)) return response;
    void report([{ kind: 'endpoint', endpoint: endpoint ?? '', url, response: response.clone() }]);
    return response;
  });
}

/**
 * A provider address refused because its host is not in `allowed-hosts`: the flow shows the shopper
 * the refusal and cancels the booking; the developer learns which host to add. The usual case is an
 * `allowed-hosts` with the web payment host but not the deeplinks' host: desktops pay, phones cannot.
 */
export function diagnoseFlowEvent(event: FlowEvent, allowedHosts: string | null): void {
  if (event.type !== 'error' || event.kind !== 'url-refused' || event.reason !== 'host-not-allowed') return;
  let url: URL | null = null;
  try {
    url = new URL(event.url!);
  } catch {
    // The refused address is not readable: the message below still names the attribute.
  }
  void report([{ kind: 'allowed-hosts', allowedHosts: allowedHosts ?? '', host: url ? url.host : '?' }]);
}
