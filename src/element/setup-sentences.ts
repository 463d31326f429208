/**
 * The developer's messages of the set-up check and the diagnostics, in English: a chunk of its own,
 * loaded only when there is something to say. A page whose set-up is right never downloads these
 * sentences; a page with a mistake gets one `console.warn` per mistake, each once per page (as Lit's
 * development warnings are), naming the attribute, its value and the fix.
 */
import { isBookingKey } from '../core/kept.js';
import { isPaidHere } from '../core/session-store.js';

/** One mistake to report, as found; found by the set-up check (setup-check.ts), said here. */
export type Notice =
  /** A problem the settings check wrote out already (it also goes into the error event). */
  | { kind: 'problem'; message: string }
  /** A look or wording that does not exist: the default is used. */
  | { kind: 'one-of'; attribute: string; value: string; list: readonly string[]; fallback: string }
  /** An attribute the element does not have, but nearly one it has. */
  | { kind: 'misspelled'; name: string; near: string }
  /** A return address (its query), read with the tab's storage and this element's key. */
  | { kind: 'return-page'; query: string; storage: Storage | null; storageKey: string }
  /** The shop's server answered something else than the handler's JSON. */
  | { kind: 'endpoint'; endpoint: string; url: string; response: Response }
  /** A provider host missing from `allowed-hosts`. */
  | { kind: 'allowed-hosts'; allowedHosts: string; host: string }
  /** A name in `wallets` the element has no words for (`known`: those it has). */
  | { kind: 'wallet'; name: string; known: readonly string[] }
  /** A name in `wallet-order` that `wallets` does not offer (`offered`: those it does). */
  | { kind: 'wallet-order'; name: string; offered: readonly string[] };

const warned = new Set<string>();

/** A response in a few words: `HTTP 404 (text/html "Page title")`. */
async function describe(response: Response): Promise<string> {
  const type = response.headers.get('content-type') ?? '';
  const title = /<title>([^<]{1,80})/i.exec(await response.text().catch(() => ''))?.[1];
  return `HTTP ${response.status} (${type.split(';')[0] || 'no type'}${title ? ` "${title.trim()}"` : ''})`;
}

/** A key is `prefix + endpoint|order JSON`: the order is what the developer recognises. */
const order = (key: string) => key.slice(key.indexOf('|') + 1);

/**
 * What a return address says when this element did not keep its booking: the kit's `booking_id` (read
 * up to a `?`, where eSewa glued its `data` on) and `status` as parameters, and the order of this tab
 * whose kept booking has that id, each kept booking parsed (an order's own `booking_id` field is none).
 * Nothing when the address names no booking, the order is paid in this tab, or this element kept it.
 */
function returnPage({ query, storage, storageKey }: Extract<Notice, { kind: 'return-page' }>): string {
  const params = new URLSearchParams(query);
  const id = params.get('booking_id')?.split('?')[0];
  const status = params.get('status');
  if (!id || !status || isPaidHere(storage, storageKey)) return '';
  let keptFor: string | undefined;
  try {
    for (let i = 0; i < storage!.length; i++) {
      const key = storage!.key(i)!;
      if (isBookingKey(key) && (JSON.parse(storage!.getItem(key)!) as { booking_id?: unknown } | null)?.booking_id === id) keptFor = key;
    }
  } catch {
    // Blocked storage, or a value that is not JSON: nothing of ours is kept there.
  }
  if (keptFor === storageKey) return '';
  return (
    `booking_id=${id}&status=${status} in this page's address ${keptFor ? `was booked for order ${order(keptFor)}, not ${order(storageKey)}` : 'is not kept in this tab (a new tab, or another browser?)'}: ` +
    "only /order can tell this element whether it is paid. Send each order back to its own checkout (redirectUrl), where /order finds it, or show the order's state from your records."
  );
}

/** The sentence of one notice (none: nothing to say). */
async function sentence(notice: Notice): Promise<string> {
  switch (notice.kind) {
    case 'problem':
      return notice.message;
    case 'one-of':
      return `${notice.attribute}="${notice.value}" is not one of: ${notice.list.join(', ')}; the default (${notice.fallback}) is used.`;
    case 'misspelled':
      return `${notice.name} is not an attribute of <wallet-pay-button>: did you mean ${notice.near}?`;
    case 'return-page':
      return returnPage(notice);
    case 'endpoint':
      return `endpoint="${notice.endpoint}": POST ${notice.url} answered ${await describe(notice.response)}, not the payment handler's JSON: set endpoint to the path the handler is mounted on.`;
    case 'wallet':
      return `wallets names "${notice.name}", which is not a wallet the element knows (${notice.known.join(', ')}): it is ignored.`;
    case 'wallet-order':
      return `wallet-order names "${notice.name}", which is not among the wallets offered (${notice.offered.join(', ') || 'none'}): it is ignored.`;
    case 'allowed-hosts':
      return `allowed-hosts="${notice.allowedHosts}" does not list ${notice.host}, so the service's address was refused and the booking cancelled. Add ${notice.host}: list the deeplinks' host (phones) and the web payment host (desktops).`;
  }
}

/** Writes each notice not written before on this page, in order. */
export async function write(notices: readonly Notice[]): Promise<void> {
  for (const message of await Promise.all(notices.map(sentence))) {
    if (!message || warned.has(message)) continue;
    warned.add(message);
    console.warn(`<wallet-pay-button>: ${message}`);
  }
}
