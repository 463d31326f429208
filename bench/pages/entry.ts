/**
 * The benchmark page's script, built by Vite with Lit's production build and minified, so the
 * element and the minimal Lit baseline share one Lit and are compared on equal terms. It exposes
 * `window.walletPayBench`; bench/browser.ts drives it through Playwright.
 */
import '../../src/define.js';
import type { WalletPayEvent } from '../../src/element/events.js';
import { BenchMinimalButton } from './minimal-button.js';
import { IDEMPOTENCY_HEADER, type BookRequest } from '../../src/protocol/contract.js';

// Registered here by name, not by the import alone: the package's `sideEffects` list does not name this
// module, so a bare `import './minimal-button.js'` is dropped from the bundle with its registration.
if (!customElements.get('bench-minimal-button')) customElements.define('bench-minimal-button', BenchMinimalButton);

/** What is rendered 1,000 times. */
export type RenderKind = 'wallet-pay-button' | 'minimal-lit' | 'button';

/** One render sample, in ms from the first `createElement`. */
export interface RenderSample {
  /** Until every element has finished its first update (script work). */
  scriptMs: number;
  /** Until style and layout of all of them are done too (a forced layout). */
  totalMs: number;
}

/** One tap sample, in ms, on the page's clock. */
export interface TapSample {
  /** From the click's dispatch on the page (before the element's own listener) to `wallet-pay-navigate`. */
  tapToNavigateMs: number;
  /** From the click event's time stamp (the input as the browser received it) to its dispatch: not the element's. */
  inputDelayMs: number;
  /** The `/book` request from its start to its response end (Resource Timing). */
  bookRoundTripMs: number;
  /** The first minus the second: what the element itself adds. */
  overheadMs: number;
  /** Of the overhead: from the click's dispatch to the start of the `/book` request. */
  beforeRequestMs: number;
  /** Of the overhead: from the end of the `/book` response to `wallet-pay-navigate`. */
  afterResponseMs: number;
  /** Of that: from the response end to the body reaching the element's script (the browser's delivery). */
  bodyDeliveryMs: number;
  /** Of that: from the body reaching the element's script to `wallet-pay-navigate` (the element's own code). */
  afterBodyMs: number;
  /** `app` on the phone path, `web-payment` on the desktop path; `bare` for a bare-fetch sample. */
  reason: string;
}

/** The channel a bare-fetch sample books (see {@link armTap}). */
export type BareChannel = BookRequest['channel'];

type Updating = Element & { updateComplete?: Promise<unknown> };

function create(kind: RenderKind, index: number): Updating {
  if (kind === 'button') {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Pay with wallet';
    return button;
  }
  if (kind === 'minimal-lit') return document.createElement('bench-minimal-button');
  const element = document.createElement('wallet-pay-button');
  element.setAttribute('endpoint', '/api/pay');
  element.setAttribute('order-id', `R-${index}`);
  return element;
}

async function render(kind: RenderKind, count: number): Promise<RenderSample> {
  const host = document.createElement('div');
  document.body.append(host);
  const start = performance.now();
  const made: Updating[] = [];
  for (let i = 0; i < count; i++) {
    const element = create(kind, i);
    host.append(element);
    made.push(element);
  }
  await Promise.all(made.map((element) => element.updateComplete));
  const scripted = performance.now();
  // Reading a layout property forces style and layout now, so "rendered" includes them for all three.
  void host.offsetHeight;
  const laidOut = performance.now();
  host.remove();
  return { scriptMs: scripted - start, totalMs: laidOut - start };
}

/** Lets the page settle between samples: a frame, a task, and a collection when the flag allows it. */
async function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

let pendingTap: Promise<TapSample> | null = null;
let bookBodyAt = Number.NaN;

// The element calls the window's fetch at click time; this wrapper only notes when the `/book` body
// reaches script, to split the browser's delivery from the element's own work after the answer.
const pageFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const response = await pageFetch(input, init);
  if (new URL(response.url).pathname === '/api/pay/book') {
    const text = response.text.bind(response);
    response.text = async () => {
      const body = await text();
      bookBodyAt = performance.now();
      return body;
    };
  }
  return response;
};

async function bookEntry(): Promise<PerformanceResourceTiming> {
  // The entry is queued when the response ends; give the page a few tasks to file it.
  for (let attempt = 0; attempt < 20; attempt++) {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const entry = entries.filter((e) => new URL(e.name).pathname === '/api/pay/book').pop();
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error('No Resource Timing entry for the /book request.');
}

/**
 * Puts a fresh element on the page, ready for one tap. A fresh order id per sample, so no kept
 * booking from an earlier sample turns the tap into a status check.
 *
 * With `bare`, the sample is the control: the same tap on the same element, but the capturing listener
 * stops the click before the element sees it and makes the element's `/book` request itself (same URL,
 * headers, body and fetch options, answer read with `response.text()`). Its "navigate" is the moment
 * the body reaches script, so its overhead is what the browser alone adds to that tap, with no element
 * code at all.
 */
async function armTap(orderId: string, allowedHosts: string, bare?: BareChannel): Promise<void> {
  document.querySelector('#tap-target')?.remove();
  performance.clearResourceTimings();
  bookBodyAt = Number.NaN;
  const element = document.createElement('wallet-pay-button');
  element.id = 'tap-target';
  element.setAttribute('endpoint', '/api/pay');
  element.setAttribute('order-id', orderId);
  element.setAttribute('allowed-hosts', allowedHosts);
  let clickStamp = Number.NaN;
  let clickAt = Number.NaN;
  let bareDone: { resolve(result: { navigateAt: number; reason: string }): void; reject(error: unknown): void } | undefined;
  // A capturing listener on the window runs before any listener of the element.
  window.addEventListener(
    'click',
    (event) => {
      clickAt = performance.now();
      clickStamp = event.timeStamp;
      if (bare) {
        event.stopPropagation();
        bareBook(orderId, bare).then(() => bareDone?.resolve({ navigateAt: bookBodyAt, reason: 'bare' }), (error: unknown) => bareDone?.reject(error));
      }
    },
    { capture: true, once: true },
  );
  pendingTap = new Promise<{ navigateAt: number; reason: string }>((resolve, reject) => {
    bareDone = { resolve, reject };
    element.addEventListener(
      'wallet-pay-navigate',
      (event: WalletPayEvent<'navigate'>) => {
        const navigateAt = performance.now();
        // The page stays put: the next sample needs it.
        event.preventDefault();
        resolve({ navigateAt, reason: event.detail.reason });
      },
      { once: true },
    );
    element.addEventListener('wallet-pay-error', (event: WalletPayEvent<'error'>) => reject(new Error(`wallet-pay-error: ${event.detail.message}`)), {
      once: true,
    });
    // A build that never navigates must end the run with a reason, not hang it.
    setTimeout(() => reject(new Error('No wallet-pay-navigate within 10 s of the tap: the element never navigated.')), 10_000);
  }).then(async ({ navigateAt, reason }) => {
    const entry = await bookEntry();
    const tapToNavigateMs = navigateAt - clickAt;
    const bookRoundTripMs = entry.responseEnd - entry.startTime;
    element.remove();
    if (!Number.isFinite(tapToNavigateMs)) throw new Error('The click was not seen before the navigation.');
    if (!Number.isFinite(bookBodyAt)) throw new Error('The /book answer was not read through response.text().');
    return {
      tapToNavigateMs,
      inputDelayMs: clickAt - clickStamp,
      bookRoundTripMs,
      overheadMs: tapToNavigateMs - bookRoundTripMs,
      beforeRequestMs: entry.startTime - clickAt,
      afterResponseMs: navigateAt - entry.responseEnd,
      bodyDeliveryMs: bookBodyAt - entry.responseEnd,
      afterBodyMs: navigateAt - bookBodyAt,
      reason,
    };
  });
  document.body.append(element);
  await element.updateComplete;
}

/** The element's `/book` request for `channel`, made by the page (src/booking-client.ts's options). */
async function bareBook(orderId: string, channel: BareChannel): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3500);
  try {
    const body: BookRequest = { channel, order: { id: orderId } };
    const response = await window.fetch(new URL('/api/pay/book', location.href).href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', [IDEMPOTENCY_HEADER]: crypto.randomUUID() },
      body: JSON.stringify(body),
      signal: controller.signal,
      cache: 'no-store',
      redirect: 'manual',
    });
    await response.text();
  } finally {
    clearTimeout(timer);
  }
}

function tapResult(): Promise<TapSample> {
  if (!pendingTap) throw new Error('tapResult() before armTap().');
  const result = pendingTap;
  pendingTap = null;
  return result;
}

/** The page's API for the driver. */
export interface BenchPage {
  render: typeof render;
  settle: typeof settle;
  armTap: typeof armTap;
  tapResult: typeof tapResult;
}

declare global {
  interface Window {
    walletPayBench: BenchPage;
  }
}

window.walletPayBench = { render, settle, armTap, tapResult };
