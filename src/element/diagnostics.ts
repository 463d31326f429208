/**
 * Set-up mistakes that show only once the element meets the shop's server or the provider: a return
 * page whose element did not make the payment in its address, an `endpoint` that is not the payment
 * handler, an `allowed-hosts` without the host the service answered with. The shopper already gets a
 * way forward from the flow; these tell the developer why, in the console, once per page (through the
 * set-up check's own once-only warning).
 */
import type { FlowEvent } from '../core/flow-state.js';
import { isBookingKey, PAID_PREFIX, sessionStorageOf } from '../core/kept.js';
import { warnOnce } from './setup-check.js';

function warn(attribute: string, value: string, message: string): void {
  warnOnce([{ kind: 'config', attribute, value, message }]);
}

const returnChecked = new WeakSet<HTMLElement>();

/** Where each booking of this tab is kept: booking id to storage key. */
function keptBookings(storage: Storage | null): Map<string, string> {
  const kept = new Map<string, string>();
  try {
    for (let i = 0; i < (storage?.length ?? 0); i++) {
      const key = storage!.key(i);
      if (!isBookingKey(key)) continue;
      const value: unknown = JSON.parse(storage!.getItem(key!) ?? 'null');
      const id = (value as { booking_id?: unknown } | null)?.booking_id;
      if (typeof id === 'string') kept.set(id, key!);
    }
  } catch {
    // Blocked or foreign storage: nothing to compare with.
  }
  return kept;
}

/** The `order-id` (or `order`) a storage key was made for, for the message. */
function orderOfKey(key: string): string {
  const json = key.slice(key.indexOf('|') + 1);
  try {
    const order = JSON.parse(json) as { id?: unknown };
    return typeof order?.id === 'string' || typeof order?.id === 'number' ? String(order.id) : json;
  } catch {
    return json;
  }
}

/**
 * On a page whose address carries a payment's `booking_id` and `status` (the provider sent the shopper
 * back to the server's `redirectUrl`), the element can verify and route only a booking it kept for its
 * own endpoint and order. Another order's element, or a tab that kept nothing (the app came back in a
 * new tab), shows the pay button again: say so and what the page must render.
 */
export function diagnoseReturnPage(host: HTMLElement, storageKey: string | undefined): void {
  // Once per element: after the flow has routed, its kept booking is gone and the address still says the same.
  if (returnChecked.has(host)) return;
  returnChecked.add(host);
  const win = host.ownerDocument.defaultView;
  const storage = sessionStorageOf(win);
  let params: URLSearchParams;
  try {
    params = new URL(win?.location.href ?? '').searchParams;
  } catch {
    return;
  }
  const bookingId = params.get('booking_id');
  const status = params.get('status');
  if (!bookingId || !status) return;
  const kept = keptBookings(storage);
  const keptUnder = kept.get(bookingId);
  if (storageKey && keptUnder === storageKey) return;
  try {
    if (storageKey && storage?.getItem(PAID_PREFIX + storageKey) != null) return;
  } catch {
    // Blocked storage: treated as nothing paid here.
  }
  const order = host.getAttribute('order-id') ?? (storageKey ? orderOfKey(storageKey) : '');
  const why = keptUnder
    ? `this tab booked it for order-id="${orderOfKey(keptUnder)}", not for this element's order-id="${order}"`
    : `this tab kept no booking ${bookingId} (the shopper may have come back in a new tab)`;
  warn(
    'order-id',
    order,
    `this page's address carries booking_id=${bookingId} and status=${status} from the payment service, but ${why}, so this element shows the pay button again instead of the result. ` +
      "The page the server's redirectUrl names must render the element with the endpoint and order-id that made the booking (send each order back to its own checkout, e.g. redirectUrl: ({ order }) => `/checkout?order=${order.id}`), " +
      'or show the order\'s state from your own records when the address carries a booking_id.',
  );
}

/**
 * Watches the answers of the shop's server: the payment handler always answers JSON, so an HTML page
 * or a plain-text 404 means `endpoint` names something else (a page route, a missing mount, a typo).
 */
export function watchEndpoint(answer: Promise<Response>, url: string, endpoint: string | null): Promise<Response> {
  return answer.then((response) => {
    const type = response.headers.get('content-type') ?? '';
    // A redirect is opaque here and the booking client names it itself.
    if (response.type === 'opaqueredirect' || /\bjson\b/i.test(type)) return response;
    void describe(response.clone(), type).then((what) =>
      warn(
        'endpoint',
        endpoint ?? '',
        `endpoint="${endpoint ?? ''}": POST ${url} answered ${what}, not the payment handler's JSON. ` +
          'The element posts to {endpoint}/book, {endpoint}/status and {endpoint}/cancel: set endpoint to the path the server kit\'s handler is mounted on ' +
          '(endpoint="/api/pay" when the server answers /api/pay/book).',
      ),
    );
    return response;
  });
}

/** "404 Not Found (text/html, "Page title")": what answered, in a few words. */
async function describe(response: Response, type: string): Promise<string> {
  let title = '';
  if (/html/i.test(type)) {
    try {
      title = /<title[^>]*>([^<]{1,80})/i.exec(await response.text())?.[1]?.trim() ?? '';
    } catch {
      // The body is not needed for the warning.
    }
  }
  const kind = [type.split(';')[0]!.trim() || 'no content type', title && JSON.stringify(title)].filter(Boolean).join(', ');
  return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} (${kind})`;
}

/**
 * A provider address refused because its host is not in `allowed-hosts`: the flow shows the shopper
 * the refusal and cancels the booking; the developer learns which host to add. The usual case is an
 * `allowed-hosts` with the web payment host but not the deeplinks' host: desktops pay, phones cannot.
 */
export function diagnoseFlowEvent(event: FlowEvent, allowedHosts: string | null): void {
  if (event.type !== 'error' || event.kind !== 'url-refused' || event.reason !== 'host-not-allowed') return;
  const quoted = /Refused to follow ("(?:[^"\\]|\\.)*")/.exec(event.message)?.[1];
  let url: URL | null = null;
  try {
    url = quoted ? new URL(JSON.parse(quoted) as string) : null;
  } catch {
    // The refused address is not readable: the message below still names the attribute.
  }
  const host = url ? (url.port ? url.host : url.hostname) : 'the host of the address the service answered';
  warn(
    'allowed-hosts',
    allowedHosts ?? '',
    `allowed-hosts="${allowedHosts ?? ''}" does not list ${host}, the host of the address the payment service answered${url ? ` (${url.href.slice(0, 120)})` : ''}: ` +
      `the element refused it and cancelled the booking. Add ${host} to allowed-hosts: it must list both the deeplinks' host (phones) and the web payment page's host (desktops).`,
  );
}
