import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertHas, assertIncludes, assertLacks } from '../../../support/assert.js';
import { BookingError, type BookingClient } from '../../../../src/core/booking-client.js';
import type { BookResult, CancelResult, StatusResult } from '../../../../src/protocol/contract.js';
import { PaymentFlow, type FlowEvent, type FlowTimings } from '../../../../src/core/flow/index.js';
import type { KeptBooking } from '../../../../src/core/session-store.js';
import type { PaymentSettings, SettingsProblem } from '../../../../src/core/settings.js';
import { settingsOf } from '../../../support/settings.js';
import { FakeClock, flush } from '../../../support/fake-clock.js';
import { createMemoryBookingStore } from '../../../support/memory-store.js';
import { recordingNavigator } from '../../../support/proxy.js';

type Answer<T> = () => Promise<T>;

/** A client answering from queues (pure-logic unit test; the element tests use the real proxy). */
function fakeClient() {
  const calls = { book: [] as { channel: string; key: string }[], status: 0, cancel: 0 };
  const queues = { book: [] as Answer<BookResult>[], status: [] as Answer<StatusResult>[], cancel: [] as Answer<CancelResult>[] };
  const next = <T>(queue: Answer<T>[]) => {
    const answer = queue.length > 1 ? queue.shift()! : queue[0];
    if (!answer) throw new Error('no scripted answer');
    return answer();
  };
  const signals: (AbortSignal | undefined)[] = [];
  const endpoints: string[] = [];
  const client = (settings: PaymentSettings): BookingClient => ({
    book: (request, key, signal) => {
      calls.book.push({ channel: request.channel, key });
      signals.push(signal);
      endpoints.push(settings.endpoint);
      return next(queues.book);
    },
    status: (_request, signal) => {
      calls.status++;
      signals.push(signal);
      endpoints.push(settings.endpoint);
      return next(queues.status);
    },
    cancel: (_request, signal) => {
      calls.cancel++;
      signals.push(signal);
      endpoints.push(settings.endpoint);
      return next(queues.cancel);
    },
    // The flow never asks it: the element's controller does, before a flow exists.
    order: () => Promise.reject(new Error('the flow asked /order')),
  });
  return { client, calls, queues, signals, endpoints };
}

const appBooking = (id = 'B1', deeplink = `https://links.wallet.test/pay/${id}`): Answer<BookResult> =>
  () => Promise.resolve({ booking_id: id, correlation_id: `c-${id}`, channel: 'app', deeplink });
const webBooking = (id = 'W1', method: 'GET' | 'POST' = 'POST'): Answer<BookResult> =>
  () => Promise.resolve({ booking_id: id, correlation_id: `c-${id}`, channel: 'web', web_payment: { url: 'https://pay.wallet.test/form', method, fields: { booking: id } } });
const status = (s: StatusResult['status'], id = 'B1'): Answer<StatusResult> =>
  () => Promise.resolve({ booking_id: id, correlation_id: `c-${id}`, status: s });
const fails = (error: BookingError) => () => Promise.reject(error);

function setup(overrides: Partial<PaymentSettings> = {}, timings: Partial<FlowTimings> = {}, store = createMemoryBookingStore()) {
  const fake = fakeClient();
  const clock = new FakeClock();
  const navigator = recordingNavigator();
  const events: FlowEvent[] = [];
  // The funnel's steps have tests of their own: `events` follows the payment's events.
  const steps: FlowEvent[] = [];
  const state = { visible: true, preventNavigation: false, hostTakes: true, keys: 0 };
  /** What the attributes say now: a test may change it between actions. */
  const config: { -readonly [K in keyof PaymentSettings]?: PaymentSettings[K] } = { ...overrides };
  const flow = new PaymentFlow({
    navigator: () => navigator,
    store,
    clock,
    client: fake.client,
    isVisible: () => state.visible,
    newKey: () => `key-${++state.keys}`,
    timings: () => ({ fallbackDelayMs: 1500, pollDelaysMs: [2000, 4000, 8000, 30000], finalCheckAfterMs: 300_000, ...timings }),
    emit: (event) => {
      (FUNNEL.has(event.type) ? steps : events).push(event);
      return !((event.type === 'navigate' && state.preventNavigation) || (event.type === 'webview' && state.hostTakes));
    },
    onChange: () => undefined,
  });
  const settings = () => settingsOf(config);
  const key = settings().storageKey;
  const keep = (booking: Partial<KeptBooking> = {}) =>
    store.save(key, { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'k0', started_at: clock.now(), settings: settings(), ...booking });
  const types = () => events.map((event) => event.type);
  // The element configures the flow with the settings of each press, then acts.
  const start = () => (flow.configure({ ok: true, settings: settings() }), flow.start());
  const resume = () => (flow.configure({ ok: true, settings: settings() }), flow.resume());
  const refuse = (...problems: SettingsProblem[]) => (flow.configure({ ok: false, problems }), flow.start());
  return { flow, fake, clock, store, navigator, events, steps, state, config, key, keep, types, start, resume, refuse, settings };
}

const FUNNEL = new Set(['shown', 'pressed', 'left', 'returned', 'confirmed', 'abandoned']);

describe('payment flow: desktop', () => {
  it('books on the web channel and POSTs the form top-level, keeping the booking first', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(webBooking());
    t.start();
    await flush();
    assert.deepEqual(t.fake.calls.book, [{ channel: 'web', key: 'key-1' }]);
    assert.deepEqual(t.navigator.calls, [{ kind: 'postForm', url: 'https://pay.wallet.test/form', fields: { booking: 'W1' } }]);
    assert.equal((t.store.entries.get(t.key) ?? null)?.booking_id, 'W1');
    assert.deepEqual(t.types(), ['booked', 'navigate']);
    assert.equal(t.flow.state.name, 'redirecting');
  });

  it('follows a GET instruction with its fields in the query', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(webBooking('W2', 'GET'));
    t.start();
    await flush();
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: 'https://pay.wallet.test/form?booking=W2' }]);
  });

  it('lets the host cancel the navigation', async () => {
    const t = setup({ environment: 'desktop' });
    t.state.preventNavigation = true;
    t.fake.queues.book.push(webBooking());
    t.start();
    await flush();
    assert.deepEqual(t.navigator.calls, []);
    assertIncludes(t.types(), 'navigate');
    assertHas(t.flow.state, { name: 'idle', busy: false });
    assert.equal((t.store.entries.get(t.key) ?? null)?.booking_id, 'W1');
  });
});

describe('payment flow: mobile', () => {
  it('opens the app as soon as the booking answers, then shows the fallback panel if still visible', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.start();
    await flush();
    assert.deepEqual(t.navigator.calls, [{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    assert.equal(t.flow.state.name, 'opening-app');
    await t.clock.advance(1499);
    assert.equal(t.flow.state.name, 'opening-app');
    await t.clock.advance(1);
    assert.equal(t.flow.state.name, 'app-fallback');
    assert.equal(t.flow.state.booking?.deeplink, 'https://links.wallet.test/pay/B1');
  });

  it('shows no panel when the page went hidden (the app took over)', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.start();
    await flush();
    t.state.visible = false;
    await t.clock.advance(2000);
    assert.equal(t.flow.state.name, 'opening-app');
  });

  it('ignores clicks while busy: one booking for three fast clicks', async () => {
    const t = setup();
    let answer!: (result: BookResult) => void;
    t.fake.queues.book.push(() => new Promise((resolve) => (answer = resolve)));
    assert.deepEqual([t.start(), t.start(), t.start()], [true, false, false]);
    answer({ booking_id: 'B1', correlation_id: 'c', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' });
    await flush();
    assert.equal(t.fake.calls.book.length, 1);
    assert.equal(t.navigator.calls.length, 1);
  });

  it('retries with the same Idempotency-Key, and a later attempt gets a new one', async () => {
    const t = setup();
    t.fake.queues.book.push(fails(new BookingError('timeout', 'slow')), appBooking());
    t.start();
    await flush();
    assertHas(t.flow.state, { name: 'error', error: { kind: 'timeout' }, canRetry: true });
    t.flow.retry();
    await flush();
    assert.deepEqual(t.fake.calls.book.map((call) => call.key), ['key-1', 'key-1']);
    // That payment ends (the shopper comes back, it failed); paying again is a new attempt.
    t.fake.queues.status.push(status('FAILED'));
    t.resume();
    await flush();
    assert.equal(t.flow.state.name, 'done');
    t.start();
    await flush();
    assert.deepEqual(t.fake.calls.book.map((call) => call.key), ['key-1', 'key-1', 'key-2']);
  });

  it('a press for another order after a failure is a new attempt with a new key', async () => {
    const t = setup();
    t.fake.queues.book.push(fails(new BookingError('http', 'x', 500)), appBooking());
    t.start();
    await flush();
    assertHas(t.flow.state, { name: 'error', canRetry: true });
    t.config.order = { id: 'A-2' };
    t.start();
    await flush();
    assert.deepEqual(t.fake.calls.book.map((call) => call.key), ['key-1', 'key-2']);
    assert.equal(t.flow.state.name, 'opening-app');
  });

  it('reports each request failure with its kind, HTTP status and code', async () => {
    const cases: BookingError[] = [
      new BookingError('network', 'x'),
      new BookingError('offline', 'x'),
      new BookingError('http', 'x', 503),
      new BookingError('http', 'x', 422, 'IP-424'),
      new BookingError('invalid-json', 'x'),
      new BookingError('invalid-response', 'x'),
    ];
    for (const error of cases) {
      const t = setup();
      t.fake.queues.book.push(fails(error));
      t.start();
      await flush();
      const shown: Record<string, unknown> = { kind: error.kind };
      if (error.status !== undefined) shown.httpStatus = error.status;
      if (error.code !== undefined) shown.code = error.code;
      assert.deepEqual(t.flow.state.error, shown);
      assertHas(t.events.at(-1), { type: 'error', kind: error.kind });
    }
  });

  for (const [name, deeplink] of [
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['a disallowed host', 'https://evil.test/pay/B1'],
  ]) {
    it(`refuses a ${name} deeplink: no navigation, an error, nothing kept`, async () => {
      const t = setup();
      t.fake.queues.book.push(appBooking('B1', deeplink!));
      t.start();
      await flush();
      assert.deepEqual(t.navigator.calls, []);
      assertHas(t.events.at(-1), { type: 'error', kind: 'url-refused', url: deeplink });
      assert.deepEqual(t.flow.state.error, { kind: 'url-refused' });
      assert.equal((t.store.entries.get(t.key) ?? null), null);
    });
  }
});

describe('payment flow: coming back', () => {
  it('routes SUCCESS to the success URL with the booking id and clears the kept booking', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(status('SUCCESS'));
    t.resume();
    await flush();
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: 'https://shop.test/done?booking_id=B1&status=SUCCESS' }]);
    assert.equal((t.store.entries.get(t.key) ?? null), null);
    assert.deepEqual(t.types(), ['success', 'navigate']);
  });

  for (const final of ['FAILED', 'CANCELED', 'REVERTED'] as const) {
    it(`routes ${final} to the failure URL`, async () => {
      const t = setup();
      t.keep();
      t.fake.queues.status.push(status(final));
      t.resume();
      await flush();
      assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: `https://shop.test/failed?booking_id=B1&status=${final}` }]);
    });
  }

  it('refuses a success URL on another origin: no navigation, an error', async () => {
    const t = setup({ successUrl: 'https://evil.test/done' });
    t.keep();
    t.fake.queues.status.push(status('SUCCESS'));
    t.resume();
    await flush();
    assert.deepEqual(t.navigator.calls, []);
    assertHas(t.events.at(-1), { type: 'error', kind: 'return-url-refused' });
  });

  it('does nothing without a kept booking', async () => {
    const t = setup();
    t.resume();
    await flush();
    assert.equal(t.fake.calls.status, 0);
    assert.equal(t.flow.state.name, 'idle');
  });

  it('keeps checking with backoff, makes one last check at five minutes, then offers check again and cancel', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(status('PENDING'));
    t.resume();
    await flush();
    assert.equal(t.flow.state.name, 'pending');
    const delays: number[] = [];
    while (t.flow.state.name === 'pending') {
      const delay = t.clock.nextDelay();
      if (delay === null) break;
      delays.push(delay);
      await t.clock.advance(delay);
    }
    assert.deepEqual(delays.slice(0, 4), [2000, 4000, 8000, 30000]);
    const total = delays.reduce((sum, d) => sum + d, 0);
    assert.equal(total, 300_000);
    assert.equal(t.fake.calls.status, delays.length + 1);
    assert.equal(t.flow.state.name, 'stalled');
    assert.equal(t.clock.pending, 0);
    assert.equal(t.types().filter((type) => type === 'pending').length, delays.length);
    // "Check again" asks once more; a final answer routes.
    t.fake.queues.status.splice(0, 1, status('SUCCESS'));
    t.flow.checkAgain();
    await flush();
    assertIncludes(t.navigator.calls.at(-1)?.url, '/done?booking_id=B1&status=SUCCESS');
  });

  it('reports a failing status check on return from a web payment and retries it', async () => {
    const t = setup();
    // Back from the provider's page: its first check decides. (Back from the app, a wait goes on: below.)
    t.keep({ channel: 'web', deeplink: undefined });
    t.fake.queues.status.push(fails(new BookingError('http', 'x', 500)), status('FAILED'));
    t.resume();
    await flush();
    assertHas(t.flow.state, { name: 'error', canRetry: true });
    t.flow.retry();
    await flush();
    assertIncludes(t.navigator.calls.at(-1)?.url, '/failed?booking_id=B1&status=FAILED');
    assert.equal(t.fake.calls.book.length, 0);
  });

  it('back from the app, a status check the shop\'s server does not answer keeps the wait, reconnecting, and the next answer routes', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(fails(new BookingError('network', 'x')), fails(new BookingError('http', 'x', 503, 'IP-503')), status('SUCCESS'));
    t.resume();
    await flush();
    assertHas(t.flow.state, { name: 'pending', reconnecting: 'server', canRetry: false, error: null });
    assertLacks(t.types(), 'error');
    await t.clock.advance(t.clock.nextDelay()!);
    assertHas(t.flow.state, { name: 'pending', reconnecting: 'server' });
    await t.clock.advance(t.clock.nextDelay()!);
    assertIncludes(t.navigator.calls.at(-1)?.url, '/done?booking_id=B1&status=SUCCESS');
  });

  it('an offline device is named as such while waiting; IP-501 and a 4xx end the wait', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(fails(new BookingError('offline', 'x')), fails(new BookingError('http', 'x', 500, 'IP-501')));
    t.resume();
    await flush();
    assertHas(t.flow.state, { name: 'pending', reconnecting: 'offline' });
    await t.clock.advance(t.clock.nextDelay()!);
    assertHas(t.flow.state, { name: 'error', reconnecting: null });
    assertHas(t.flow.state.error, { kind: 'merchant-setup' });
  });

  it('a click with a kept booking checks it instead of booking again', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(status('SUCCESS'));
    t.start();
    await flush();
    assert.equal(t.fake.calls.book.length, 0);
    assert.equal(t.fake.calls.status, 1);
  });
});

describe('payment flow: cancel and pay on the web', () => {
  async function stalled(t: ReturnType<typeof setup>) {
    t.keep({ started_at: t.clock.now() - 400_000 });
    t.fake.queues.status.push(status('PENDING'));
    t.resume();
    await flush();
    assert.equal(t.flow.state.name, 'stalled');
    t.fake.queues.status.length = 0;
  }

  it('cancels and routes to the failure page', async () => {
    const t = setup();
    await stalled(t);
    t.fake.queues.cancel.push(() => Promise.resolve({ booking_id: 'B1', status: 'CANCELED' }));
    t.flow.cancel();
    await flush();
    assert.deepEqual(t.types().slice(-3), ['cancel', 'failure', 'navigate']);
    assert.equal(t.navigator.calls.at(-1)?.url, 'https://shop.test/failed?booking_id=B1&status=CANCELED');
  });

  it('after IP-410 checks the status again and routes by it', async () => {
    const t = setup();
    await stalled(t);
    t.fake.queues.cancel.push(fails(new BookingError('http', 'x', 409, 'IP-410')));
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.cancel();
    await flush();
    assert.equal(t.navigator.calls.at(-1)?.url, 'https://shop.test/done?booking_id=B1&status=SUCCESS');
  });

  it('pay on the web: an already paid app booking goes to success', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.payOnWeb();
    await flush();
    assert.equal(t.fake.calls.book.length, 1);
    assertIncludes(t.navigator.calls.at(-1)?.url, '/done?booking_id=B1');
  });

  it('pay on the web: an open app booking is cancelled, then a new web attempt with a new key', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking(), webBooking());
    t.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(status('BOOKED'));
    t.fake.queues.cancel.push(() => Promise.resolve({ booking_id: 'B1', status: 'CANCELED' }));
    t.flow.payOnWeb();
    await flush();
    assert.equal(t.fake.calls.cancel, 1);
    assert.deepEqual(t.fake.calls.book, [{ channel: 'app', key: 'key-1' }, { channel: 'web', key: 'key-2' }]);
    assertHas(t.navigator.calls.at(-1), { kind: 'postForm' });
    assert.equal((t.store.entries.get(t.key) ?? null)?.booking_id, 'W1');
  });
});

describe('payment flow: lifecycle', () => {
  it('dispose drops a late booking answer and frees the button; pressing again reuses the key', async () => {
    const t = setup();
    let answer!: (result: BookResult) => void;
    t.fake.queues.book.push(() => new Promise((resolve) => (answer = resolve)), appBooking());
    t.start();
    t.flow.dispose();
    assertHas(t.flow.state, { name: 'idle', busy: false });
    answer({ booking_id: 'B0', correlation_id: 'c', channel: 'app', deeplink: 'https://links.wallet.test/pay/B0' });
    await flush();
    assert.deepEqual(t.navigator.calls, []);
    t.start();
    await flush();
    assert.deepEqual(t.fake.calls.book.map((call) => call.key), ['key-1', 'key-1']);
    assert.deepEqual(t.navigator.calls, [{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
  });
});

describe('payment flow: a reload during the booking request', () => {
  it('the reloaded page takes the attempt up again with its key and path, so it books once', async () => {
    const first = setup();
    // The page goes away before the booking answers (the service may have booked already).
    first.fake.queues.book.push(() => new Promise<BookResult>(() => undefined));
    first.start();
    await flush();
    assert.equal(first.store.attempts.get(first.key), 'mobile:key-1');

    // The new page (same tab storage) even detects another environment: the attempt keeps its path.
    const second = setup({ environment: 'desktop' }, {}, first.store);
    second.fake.queues.book.push(appBooking());
    second.start();
    await flush();
    assert.deepEqual(second.fake.calls.book, [{ channel: 'app', key: 'key-1' }]);
    assert.equal(second.state.keys, 0, 'no new key was made');
    // Once the booking is kept the attempt is over: the next payment gets a new key.
    assert.equal(second.store.attempts.size, 0);
    assert.equal((second.store.entries.get(second.key) ?? null)?.booking_id, 'B1');
  });

  it('ignores a kept attempt it cannot read and starts a new one', async () => {
    for (const junk of ['toString:k9', 'k9', ':k9', 'tablet:k9']) {
      const store = createMemoryBookingStore();
      const t = setup({}, {}, store);
      store.setAttempt(t.key, junk);
      t.fake.queues.book.push(appBooking());
      t.start();
      await flush();
      assert.deepEqual(t.fake.calls.book, [{ channel: 'app', key: 'key-1' }], junk);
    }
  });
});

describe('payment flow: pay on the web failures', () => {
  it('a failing status check is reported, and its retry goes on to the web attempt', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking(), webBooking());
    t.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(fails(new BookingError('network', 'down')), status('FAILED'));
    t.flow.payOnWeb();
    await flush();
    assertHas(t.flow.state, { name: 'error', error: { kind: 'network' }, canRetry: true });
    assert.equal(t.flow.state.booking?.booking_id, 'B1');
    t.flow.retry();
    await flush();
    assert.equal(t.fake.calls.cancel, 0);
    assert.deepEqual(t.fake.calls.book.map((call) => call.channel), ['app', 'web']);
    assertHas(t.navigator.calls.at(-1), { kind: 'postForm' });
  });

  it('an IP-410 on the way cancels nothing and routes by the fresh status', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(status('PENDING'), status('REVERTED'));
    t.fake.queues.cancel.push(fails(new BookingError('http', 'x', 409, 'IP-410')));
    t.flow.payOnWeb();
    await flush();
    assert.equal(t.fake.calls.book.length, 1);
    assert.equal(t.navigator.calls.at(-1)?.url, 'https://shop.test/failed?booking_id=B1&status=REVERTED');
  });
});

describe('payment flow: no payment', () => {
  it('in a WebView whose host app takes the payment (preventDefault), hands over without booking or navigating', () => {
    const t = setup({ environment: 'webview' });
    t.start();
    assert.deepEqual(t.events, [
      { type: 'webview', order: { id: 'A-1' }, endpoint: 'https://shop.test/pay', success_url: 'https://shop.test/done', failure_url: 'https://shop.test/failed' },
    ]);
    assert.equal(t.fake.calls.book.length, 0);
    assert.equal(t.navigator.calls.length, 0);
    assert.equal(t.flow.state.name, 'webview');
  });

  it('refuses to start inside a cross-origin frame', () => {
    const t = setup();
    const framed: SettingsProblem = { kind: 'framed', attribute: 'allow-framed', value: '', message: 'framed!' };
    const other: SettingsProblem = { kind: 'config', attribute: 'order-id', value: '', message: 'no order' };
    assert.equal(t.refuse(other, framed), false);
    assert.deepEqual(t.events, [{ type: 'error', kind: 'framed', message: 'framed!' }]);
    assert.equal(t.fake.calls.book.length, 0);
  });

  it('reports set-up problems as one set-up error naming each', () => {
    const t = setup();
    t.refuse(
      { kind: 'config', attribute: 'order-id', value: '', message: 'order-id is missing.' },
      { kind: 'config', attribute: 'environment', value: 'tablet', message: 'environment="tablet" is wrong.' },
    );
    assertHas(t.flow.state, { name: 'error', error: { kind: 'config' }, canRetry: false });
    assert.deepEqual(t.events, [{ type: 'error', kind: 'config', message: 'order-id is missing. environment="tablet" is wrong.' }]);
  });
});

describe('payment flow: the phone hand-off (desktop)', () => {
  const handOff = (t: ReturnType<typeof setup>) => (t.flow.configure({ ok: true, settings: t.settings() }), t.flow.handOff());

  it('books on the app channel with a key of its own, keeps the booking as a hand-off and checks with backoff', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(appBooking());
    t.fake.queues.status.push(status('BOOKED'));
    assert.equal(handOff(t), true);
    await flush();
    assert.deepEqual(t.fake.calls.book, [{ channel: 'app', key: 'key-1' }]);
    assert.deepEqual(t.navigator.calls, []);
    assertHas(t.flow.state, { name: 'handoff', busy: false });
    assert.equal(t.store.entries.get(t.key)?.handoff, true);
    assertHas(t.events[0], { type: 'booked', channel: 'app', handoff: true });
    await t.clock.advance(1999);
    assert.equal(t.fake.calls.status, 0);
    await t.clock.advance(1);
    assert.equal(t.fake.calls.status, 1);
    // The code stays up while the check runs, and after it.
    assert.equal(t.flow.state.name, 'handoff');
    await t.clock.advance(4000);
    assert.equal(t.fake.calls.status, 2);
  });

  it('routes a payment made on the phone to the success page', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(appBooking());
    t.fake.queues.status.push(status('SUCCESS'));
    handOff(t);
    await flush();
    await t.clock.advance(2000);
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: 'https://shop.test/done?booking_id=B1&status=SUCCESS' }]);
    assert.equal(t.store.entries.has(t.key), false);
  });

  it('checks at once when the page comes back, and a reload takes the waiting up again', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(appBooking());
    t.fake.queues.status.push(status('BOOKED'));
    handOff(t);
    await flush();
    t.resume();
    await flush();
    assert.equal(t.fake.calls.status, 1);
    assert.equal(t.flow.state.name, 'handoff');
    const reloaded = setup({ environment: 'desktop' }, {}, t.store);
    reloaded.fake.queues.status.push(status('BOOKED'));
    reloaded.resume();
    await flush();
    assertHas(reloaded.flow.state, { name: 'handoff' });
    assert.equal(reloaded.flow.state.booking?.deeplink, 'https://links.wallet.test/pay/B1');
  });

  it('an expired booking (CANCELED while waiting) offers a new code on a new attempt', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(appBooking('B1'));
    t.fake.queues.status.push(status('CANCELED'));
    handOff(t);
    await flush();
    await t.clock.advance(2000);
    assert.equal(t.flow.state.name, 'handoff-expired');
    assert.deepEqual(t.navigator.calls, []);
    t.fake.queues.book = [appBooking('B2')];
    t.flow.newCode();
    await flush();
    assert.deepEqual(t.fake.calls.book.map((call) => call.key), ['key-1', 'key-2']);
    assert.equal(t.flow.state.name, 'handoff');
    assert.equal(t.store.entries.get(t.key)?.booking_id, 'B2');
  });

  it('cancel on an expired code ends the payment without a request', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(appBooking());
    t.fake.queues.status.push(status('CANCELED'));
    handOff(t);
    await flush();
    await t.clock.advance(2000);
    t.flow.cancel();
    assert.equal(t.fake.calls.cancel, 0);
    assert.deepEqual(t.navigator.calls, [{ kind: 'assign', url: 'https://shop.test/failed?booking_id=B1&status=CANCELED' }]);
  });

  it('the five-minute rule stalls the code with "check again"', async () => {
    const t = setup({ environment: 'desktop' }, { pollDelaysMs: [60_000], finalCheckAfterMs: 120_000 });
    t.fake.queues.book.push(appBooking());
    t.fake.queues.status.push(status('BOOKED'));
    handOff(t);
    await flush();
    await t.clock.advance(120_000);
    assert.equal(t.flow.state.name, 'stalled');
    assert.equal(t.flow.state.booking?.handoff, true);
  });

  it('"use this computer instead" cancels the app booking, then books on the web with another key', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(appBooking());
    handOff(t);
    await flush();
    t.fake.queues.status.push(status('BOOKED'));
    t.fake.queues.cancel.push(() => Promise.resolve({ booking_id: 'B1', status: 'CANCELED' }));
    t.fake.queues.book = [webBooking()];
    t.flow.payOnWeb();
    await flush();
    assert.equal(t.fake.calls.cancel, 1);
    assert.deepEqual(t.fake.calls.book, [
      { channel: 'app', key: 'key-1' },
      { channel: 'web', key: 'key-2' },
    ]);
    assert.equal(t.store.entries.get(t.key)?.booking_id, 'W1');
    assert.equal(t.navigator.calls[0]?.kind, 'postForm');
  });

  it('with a booking already kept, checks it instead of booking a second one', async () => {
    const t = setup({ environment: 'desktop' });
    t.keep({ booking_id: 'W1', correlation_id: 'c-W1', channel: 'web' });
    // PENDING: a web booking still BOOKED when the page comes back was left unpaid (cancelled, see the funnel's tests).
    t.fake.queues.status.push(status('PENDING', 'W1'));
    handOff(t);
    await flush();
    assert.deepEqual(t.fake.calls.book, []);
    assert.equal(t.flow.state.name, 'pending');
  });

  it('is a desktop path only', () => {
    const t = setup({ environment: 'mobile' });
    assert.equal(handOff(t), false);
    assert.deepEqual(t.fake.calls.book, []);
  });

  it('the pay button after a failed hand-off booking starts a web attempt with another key', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(fails(new BookingError('network', 'book: down')));
    handOff(t);
    await flush();
    assert.equal(t.flow.state.name, 'error');
    t.fake.queues.book = [webBooking()];
    t.start();
    await flush();
    assert.deepEqual(t.fake.calls.book, [
      { channel: 'app', key: 'key-1' },
      { channel: 'web', key: 'key-2' },
    ]);
  });
});

describe('payment flow: settings pushed by the element (configure)', () => {
  const ok = (t: ReturnType<typeof setup>) => ({ ok: true as const, settings: t.settings() });

  it('the first settings are a way back: a booking kept for the order is checked, without a press', async () => {
    const t = setup({ environment: 'mobile' });
    t.keep();
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.configure(ok(t));
    await flush();
    assert.equal(t.fake.calls.status, 1);
    assert.deepEqual(t.types(), ['success', 'navigate']);
  });

  it('settings of another order turn a paid checkout back to idle, or show the other order paid', () => {
    const t = setup();
    t.store.setPaid(t.key, { booking_id: 'B1', url: '/done' });
    t.flow.configure(ok(t));
    assert.equal(t.flow.state.name, 'paid');
    // A single-page app moves on to an order this tab has not paid.
    t.config.order = { id: 'A-2' };
    t.flow.configure(ok(t));
    assert.equal(t.flow.state.name, 'idle');
    // And back: the first order shows paid again.
    t.config.order = { id: 'A-1' };
    t.flow.configure(ok(t));
    assert.equal(t.flow.state.name, 'paid');
    // The same settings again change nothing.
    t.flow.configure(ok(t));
    assert.equal(t.flow.state.name, 'paid');
  });

  it('a payment under way goes on with its own settings when the page sets another order', async () => {
    const t = setup({ environment: 'mobile' });
    t.fake.queues.book.push(appBooking());
    t.fake.queues.status.push(status('PENDING'));
    t.start();
    await flush();
    t.state.visible = false;
    t.clock.advance(1500);
    t.resume();
    await flush();
    assert.equal(t.flow.state.name, 'pending');
    const checks = t.fake.calls.status;
    t.config.order = { id: 'A-2' };
    t.flow.configure(ok(t));
    await flush();
    // No new check, no new state: the waiting payment is not abandoned or checked twice.
    assert.equal(t.fake.calls.status, checks);
    assert.equal(t.flow.state.name, 'pending');
    assert.equal(t.flow.state.booking?.settings.order.id, 'A-1');
  });

  it('after dispose (the element was removed), the next settings look for the way back again', async () => {
    const t = setup({ environment: 'mobile' });
    t.keep();
    t.fake.queues.status.push(status('PENDING'));
    t.flow.configure(ok(t));
    await flush();
    assert.equal(t.flow.state.name, 'pending');
    t.flow.dispose();
    const checks = t.fake.calls.status;
    // Attached again: the element pushes its settings; the kept booking is checked at once.
    t.flow.configure(ok(t));
    await flush();
    assert.equal(t.fake.calls.status, checks + 1);
  });

  it('a press before any settings does nothing', () => {
    const t = setup();
    assert.equal(t.flow.start(), false);
    assert.equal(t.flow.handOff(), false);
    assert.equal(t.flow.state.name, 'idle');
  });
});

describe('payment flow: the funnel', () => {
  type Step = FlowEvent & { attempt_id: string; elapsed_ms: number };
  const steps = (t: ReturnType<typeof setup>) => t.steps as Step[];

  it('an in-app payment: pressed, booked, left, returned, confirmed share one attempt id, with times from the attempt\'s start', async () => {
    const t = setup({ environment: 'inapp', successUrl: null, failureUrl: null }, { pollDelaysMs: [2000] });
    t.fake.queues.book.push(webBooking());
    t.fake.queues.status.push(status('SUCCESS', 'W1'));
    await t.clock.advance(100);
    t.start();
    await flush();
    // "Pay on the web", the path that completes inside someone else's in-app browser: one press goes there.
    assert.deepEqual(t.fake.calls.book, [{ channel: 'web', key: 'key-1' }]);
    assert.deepEqual(t.navigator.calls, [{ kind: 'postForm', url: 'https://pay.wallet.test/form', fields: { booking: 'W1' } }]);
    await t.clock.advance(2000);
    t.resume();
    await flush();
    const all = [...steps(t), t.events.find((event) => event.type === 'booked') as Step];
    assert.deepEqual(steps(t).map((step) => step.type), ['pressed', 'left', 'returned', 'confirmed']);
    assert.equal((steps(t)[1] as Step & { to?: string }).to, 'web');
    assert.equal(new Set(all.map((step) => step.attempt_id)).size, 1);
    // The flow's own funnel began when it was built (no `shown` from an element here): 100 ms before the press.
    assert.deepEqual(steps(t).map((step) => step.elapsed_ms), [100, 100, 2100, 2100]);
  });

  it('a new press after an attempt ended starts a new attempt id', async () => {
    const t = setup({ environment: 'inapp', successUrl: null, failureUrl: null }, { pollDelaysMs: [10] });
    t.fake.queues.book.push(webBooking());
    t.fake.queues.status.push(status('FAILED', 'W1'));
    t.start();
    await flush();
    t.resume();
    await flush();
    await t.clock.advance(10);
    t.fake.queues.book = [webBooking('W2')];
    t.start();
    await flush();
    const pressed = steps(t).filter((step) => step.type === 'pressed');
    assert.equal(pressed.length, 2);
    assert.notEqual(pressed[0]!.attempt_id, pressed[1]!.attempt_id);
  });

  for (const [name, minutes, reason] of [
    ['cancelled in the app', 1, 'cancelled'],
    ['reported CANCELED past the five-minute wait', 6, 'expired'],
  ] as const) {
    it(`${name}: confirmed CANCELED, then abandoned ("${reason}")`, async () => {
      const t = setup({ successUrl: null, failureUrl: null });
      t.keep({ started_at: t.clock.now() - minutes * 60_000 });
      t.fake.queues.status.push(status('CANCELED'));
      t.resume();
      await flush();
      assert.deepEqual(steps(t).map((step) => [step.type, (step as { reason?: string }).reason]), [['returned', undefined], ['confirmed', undefined], ['abandoned', reason]]);
      assert.equal(t.flow.state.name, 'done');
    });
  }

  it('"Cancel payment" pressed here: abandoned ("cancel")', async () => {
    const t = setup({ successUrl: null, failureUrl: null });
    t.keep({ started_at: t.clock.now() - 10 * 60_000 });
    t.fake.queues.status.push(status('PENDING'));
    t.resume();
    await flush();
    assert.equal(t.flow.state.name, 'stalled');
    t.fake.queues.cancel.push(() => Promise.resolve({ booking_id: 'B1', status: 'CANCELED' }));
    t.flow.cancel();
    await flush();
    assert.equal(steps(t).at(-1)!.type, 'abandoned');
    assert.equal((steps(t).at(-1) as { reason?: string }).reason, 'cancel');
  });

  it('back from the web payment page with the booking still BOOKED: cancelled at the service, abandoned ("back"), idle again', async () => {
    const t = setup();
    t.keep({ booking_id: 'W1', correlation_id: 'c-W1', channel: 'web' });
    t.fake.queues.status.push(status('BOOKED', 'W1'));
    t.fake.queues.cancel.push(() => Promise.resolve({ booking_id: 'W1', status: 'CANCELED' }));
    t.resume();
    await flush();
    assert.equal(t.fake.calls.cancel, 1);
    assert.equal(t.flow.state.name, 'idle');
    assert.equal(t.store.entries.get(t.key), undefined, 'the booking is no longer kept');
    assert.deepEqual(steps(t).map((step) => step.type), ['returned', 'abandoned']);
  });

  it('the steps after a reload keep the attempt id the booking was made with', async () => {
    const t = setup({ successUrl: null, failureUrl: null });
    t.keep({ attempt_id: 'A-kept', attempt_at: t.clock.now() - 5000 });
    t.fake.queues.status.push(status('SUCCESS'));
    t.resume();
    await flush();
    assert.deepEqual(steps(t).map((step) => [step.type, step.attempt_id, step.elapsed_ms]), [['returned', 'A-kept', 5000], ['confirmed', 'A-kept', 5000]]);
  });

  it('a WebView no host takes: goes on as in an in-app browser, on the web channel, to the web payment', async () => {
    const t = setup({ environment: 'webview' });
    t.state.hostTakes = false;
    t.fake.queues.book.push(webBooking());
    t.start();
    await flush();
    assert.deepEqual(t.types().slice(0, 2), ['webview', 'booked']);
    assert.deepEqual(t.fake.calls.book, [{ channel: 'web', key: 'key-1' }]);
    assert.equal(t.flow.state.booking?.inapp, true);
    assert.deepEqual(t.navigator.calls, [{ kind: 'postForm', url: 'https://pay.wallet.test/form', fields: { booking: 'W1' } }]);
  });

  it('a WebView no host takes, with no endpoint to book with: a set-up error naming what is missing', () => {
    const t = setup({ environment: 'webview', endpoint: '', allowedHosts: [] });
    t.state.hostTakes = false;
    t.start();
    assert.equal(t.flow.state.name, 'error');
    assert.match((t.events.at(-1) as { message: string }).message, /preventDefault\(\).*endpoint/);
    assert.equal(t.fake.calls.book.length, 0);
  });
});

describe('payment flow: a web booking when the page only becomes visible again', () => {
  it('is not taken for one left unpaid: the shopper may be paying in another tab', async () => {
    const t = setup();
    t.flow.configure({ ok: true, settings: t.settings() });
    t.keep({ booking_id: 'W1', correlation_id: 'c-W1', channel: 'web' });
    t.fake.queues.status.push(status('BOOKED', 'W1'));
    t.flow.resume(true);
    await flush();
    assert.equal(t.fake.calls.cancel, 0);
    assert.equal(t.flow.state.name, 'pending');
  });
});
