import { expect } from '@open-wc/testing';
import { BookingError, type BookingClient } from '../../../src/core/booking-client.js';
import type { BookResult, CancelResult, StatusResult } from '../../../src/protocol/contract.js';
import { PaymentFlow, type FlowConfig, type FlowEvent, type FlowTimings } from '../../../src/core/flow.js';
import { bookingKey, createMemoryBookingStore, type KeptBooking } from '../../../src/core/session-store.js';
import { FakeClock, flush } from '../../support/fake-clock.js';
import { recordingNavigator } from '../../support/proxy.js';

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
  const client: BookingClient = {
    book: (request, key) => {
      calls.book.push({ channel: request.channel, key });
      return next(queues.book);
    },
    status: () => {
      calls.status++;
      return next(queues.status);
    },
    cancel: () => {
      calls.cancel++;
      return next(queues.cancel);
    },
  };
  return { client, calls, queues };
}

const appBooking = (id = 'B1', deeplink = `https://links.wallet.test/pay/${id}`): Answer<BookResult> =>
  () => Promise.resolve({ booking_id: id, correlation_id: `c-${id}`, channel: 'app', deeplink });
const webBooking = (id = 'W1', method: 'GET' | 'POST' = 'POST'): Answer<BookResult> =>
  () => Promise.resolve({ booking_id: id, correlation_id: `c-${id}`, channel: 'web', web_payment: { url: 'https://pay.wallet.test/form', method, fields: { booking: id } } });
const status = (s: StatusResult['status'], id = 'B1'): Answer<StatusResult> =>
  () => Promise.resolve({ booking_id: id, correlation_id: `c-${id}`, status: s });
const fails = (error: BookingError) => () => Promise.reject(error);

function setup(overrides: Partial<FlowConfig> = {}, timings: Partial<FlowTimings> = {}, store = createMemoryBookingStore()) {
  const fake = fakeClient();
  const clock = new FakeClock();
  const navigator = recordingNavigator();
  const events: FlowEvent[] = [];
  const state = { visible: true, preventNavigation: false, keys: 0 };
  const config: FlowConfig = {
    endpoint: 'https://shop.test/pay',
    client: fake.client,
    order: { id: 'A-1' },
    environment: 'mobile',
    successUrl: '/done',
    failureUrl: '/failed',
    pageUrl: 'https://shop.test/checkout',
    allowedHosts: ['links.wallet.test', 'pay.wallet.test'],
    returnOrigins: [],
    blockedByFrame: false,
    ...overrides,
  };
  const flow = new PaymentFlow({
    config: () => config,
    navigator: () => navigator,
    store,
    clock,
    isVisible: () => state.visible,
    newKey: () => `key-${++state.keys}`,
    timings: () => ({ fallbackDelayMs: 1500, pollDelaysMs: [2000, 4000, 8000, 30000], finalCheckAfterMs: 300_000, ...timings }),
    emit: (event) => {
      events.push(event);
      return !(event.type === 'navigate' && state.preventNavigation);
    },
    onChange: () => undefined,
  });
  const key = bookingKey(config.endpoint!, config.order);
  const keep = (booking: Partial<KeptBooking> = {}) =>
    store.save(key, { booking_id: 'B1', correlation_id: 'c-B1', channel: 'app', idempotency_key: 'k0', started_at: clock.now(), ...booking });
  const types = () => events.map((event) => event.type);
  return { flow, fake, clock, store, navigator, events, state, config, key, keep, types };
}

describe('payment flow: desktop', () => {
  it('books on the web channel and POSTs the form top-level, keeping the booking first', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(webBooking());
    t.flow.start();
    await flush();
    expect(t.fake.calls.book).to.deep.equal([{ channel: 'web', key: 'key-1' }]);
    expect(t.navigator.calls).to.deep.equal([{ kind: 'postForm', url: 'https://pay.wallet.test/form', fields: { booking: 'W1' } }]);
    expect(t.store.load(t.key)?.booking_id).to.equal('W1');
    expect(t.types()).to.deep.equal(['booked', 'navigate']);
    expect(t.flow.state.name).to.equal('redirecting');
  });

  it('follows a GET instruction with its fields in the query', async () => {
    const t = setup({ environment: 'desktop' });
    t.fake.queues.book.push(webBooking('W2', 'GET'));
    t.flow.start();
    await flush();
    expect(t.navigator.calls).to.deep.equal([{ kind: 'assign', url: 'https://pay.wallet.test/form?booking=W2' }]);
  });

  it('lets the host cancel the navigation', async () => {
    const t = setup({ environment: 'desktop' });
    t.state.preventNavigation = true;
    t.fake.queues.book.push(webBooking());
    t.flow.start();
    await flush();
    expect(t.navigator.calls).to.deep.equal([]);
    expect(t.types()).to.include('navigate');
    expect(t.flow.state).to.include({ name: 'idle', busy: false });
    expect(t.store.load(t.key)?.booking_id).to.equal('W1');
  });
});

describe('payment flow: mobile', () => {
  it('opens the app as soon as the booking answers, then shows the fallback panel if still visible', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.flow.start();
    await flush();
    expect(t.navigator.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    expect(t.flow.state.name).to.equal('opening-app');
    await t.clock.advance(1499);
    expect(t.flow.state.name).to.equal('opening-app');
    await t.clock.advance(1);
    expect(t.flow.state.name).to.equal('app-fallback');
    expect(t.flow.state.booking?.deeplink).to.equal('https://links.wallet.test/pay/B1');
  });

  it('shows no panel when the page went hidden (the app took over)', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.flow.start();
    await flush();
    t.state.visible = false;
    await t.clock.advance(2000);
    expect(t.flow.state.name).to.equal('opening-app');
  });

  it('ignores clicks while busy: one booking for three fast clicks', async () => {
    const t = setup();
    let answer!: (result: BookResult) => void;
    t.fake.queues.book.push(() => new Promise((resolve) => (answer = resolve)));
    expect([t.flow.start(), t.flow.start(), t.flow.start()]).to.deep.equal([true, false, false]);
    answer({ booking_id: 'B1', correlation_id: 'c', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' });
    await flush();
    expect(t.fake.calls.book).to.have.length(1);
    expect(t.navigator.calls).to.have.length(1);
  });

  it('retries with the same Idempotency-Key, and a later attempt gets a new one', async () => {
    const t = setup();
    t.fake.queues.book.push(fails(new BookingError('timeout', 'slow')), appBooking());
    t.flow.start();
    await flush();
    expect(t.flow.state).to.include({ name: 'error', message: 'error.timeout', canRetry: true });
    t.flow.retry();
    await flush();
    expect(t.fake.calls.book.map((call) => call.key)).to.deep.equal(['key-1', 'key-1']);
    // That payment ends (the shopper comes back, it failed); paying again is a new attempt.
    t.fake.queues.status.push(status('FAILED'));
    t.flow.resume();
    await flush();
    expect(t.flow.state.name).to.equal('done');
    t.flow.start();
    await flush();
    expect(t.fake.calls.book.map((call) => call.key)).to.deep.equal(['key-1', 'key-1', 'key-2']);
  });

  it('a press for another order after a failure is a new attempt with a new key', async () => {
    const t = setup();
    t.fake.queues.book.push(fails(new BookingError('http', 'x', 500)), appBooking());
    t.flow.start();
    await flush();
    expect(t.flow.state).to.include({ name: 'error', canRetry: true });
    t.config.order = { id: 'A-2' };
    t.flow.start();
    await flush();
    expect(t.fake.calls.book.map((call) => call.key)).to.deep.equal(['key-1', 'key-2']);
    expect(t.flow.state.name).to.equal('opening-app');
  });

  it('maps each request failure to its own message', async () => {
    const cases: [BookingError, string][] = [
      [new BookingError('network', 'x'), 'error.network'],
      [new BookingError('offline', 'x'), 'error.offline'],
      [new BookingError('http', 'x', 503), 'error.http'],
      [new BookingError('http', 'x', 422, 'IP-424'), 'error.rejected'],
      [new BookingError('invalid-json', 'x'), 'error.invalid-json'],
      [new BookingError('invalid-response', 'x'), 'error.invalid-response'],
    ];
    for (const [error, message] of cases) {
      const t = setup();
      t.fake.queues.book.push(fails(error));
      t.flow.start();
      await flush();
      expect(t.flow.state.message).to.equal(message);
      expect(t.events.at(-1)).to.include({ type: 'error', kind: error.kind });
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
      t.flow.start();
      await flush();
      expect(t.navigator.calls).to.deep.equal([]);
      expect(t.events.at(-1)).to.include({ type: 'error', kind: 'url-refused' });
      expect(t.flow.state.message).to.equal('error.url-refused');
      expect(t.store.load(t.key)).to.equal(null);
    });
  }
});

describe('payment flow: coming back', () => {
  it('routes SUCCESS to the success URL with the booking id and clears the kept booking', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.resume();
    await flush();
    expect(t.navigator.calls).to.deep.equal([{ kind: 'assign', url: 'https://shop.test/done?booking_id=B1&status=SUCCESS' }]);
    expect(t.store.load(t.key)).to.equal(null);
    expect(t.types()).to.deep.equal(['success', 'navigate']);
  });

  for (const final of ['FAILED', 'CANCELED', 'REVERTED'] as const) {
    it(`routes ${final} to the failure URL`, async () => {
      const t = setup();
      t.keep();
      t.fake.queues.status.push(status(final));
      t.flow.resume();
      await flush();
      expect(t.navigator.calls).to.deep.equal([{ kind: 'assign', url: `https://shop.test/failed?booking_id=B1&status=${final}` }]);
    });
  }

  it('refuses a success URL on another origin: no navigation, an error', async () => {
    const t = setup({ successUrl: 'https://evil.test/done' });
    t.keep();
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.resume();
    await flush();
    expect(t.navigator.calls).to.deep.equal([]);
    expect(t.events.at(-1)).to.include({ type: 'error', kind: 'return-url-refused' });
  });

  it('does nothing without a kept booking', async () => {
    const t = setup();
    t.flow.resume();
    await flush();
    expect(t.fake.calls.status).to.equal(0);
    expect(t.flow.state.name).to.equal('idle');
  });

  it('keeps checking with backoff, makes one last check at five minutes, then offers check again and cancel', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(status('PENDING'));
    t.flow.resume();
    await flush();
    expect(t.flow.state.name).to.equal('pending');
    const delays: number[] = [];
    while (t.flow.state.name === 'pending') {
      const delay = t.clock.nextDelay();
      if (delay === null) break;
      delays.push(delay);
      await t.clock.advance(delay);
    }
    expect(delays.slice(0, 4)).to.deep.equal([2000, 4000, 8000, 30000]);
    const total = delays.reduce((sum, d) => sum + d, 0);
    expect(total).to.equal(300_000);
    expect(t.fake.calls.status).to.equal(delays.length + 1);
    expect(t.flow.state.name).to.equal('stalled');
    expect(t.clock.pending).to.equal(0);
    expect(t.types().filter((type) => type === 'pending')).to.have.length(delays.length);
    // "Check again" asks once more; a final answer routes.
    t.fake.queues.status.splice(0, 1, status('SUCCESS'));
    t.flow.checkAgain();
    await flush();
    expect(t.navigator.calls.at(-1)?.url).to.contain('/done?booking_id=B1&status=SUCCESS');
  });

  it('reports a failing status check and retries it', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(fails(new BookingError('http', 'x', 500)), status('FAILED'));
    t.flow.resume();
    await flush();
    expect(t.flow.state).to.include({ name: 'error', canRetry: true });
    t.flow.retry();
    await flush();
    expect(t.navigator.calls.at(-1)?.url).to.contain('/failed?booking_id=B1&status=FAILED');
    expect(t.fake.calls.book).to.have.length(0);
  });

  it('a click with a kept booking checks it instead of booking again', async () => {
    const t = setup();
    t.keep();
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.start();
    await flush();
    expect(t.fake.calls.book).to.have.length(0);
    expect(t.fake.calls.status).to.equal(1);
  });
});

describe('payment flow: cancel and pay on the web', () => {
  async function stalled(t: ReturnType<typeof setup>) {
    t.keep({ started_at: t.clock.now() - 400_000 });
    t.fake.queues.status.push(status('PENDING'));
    t.flow.resume();
    await flush();
    expect(t.flow.state.name).to.equal('stalled');
    t.fake.queues.status.length = 0;
  }

  it('cancels and routes to the failure page', async () => {
    const t = setup();
    await stalled(t);
    t.fake.queues.cancel.push(() => Promise.resolve({ booking_id: 'B1', status: 'CANCELED' }));
    t.flow.cancel();
    await flush();
    expect(t.types().slice(-3)).to.deep.equal(['cancel', 'failure', 'navigate']);
    expect(t.navigator.calls.at(-1)?.url).to.equal('https://shop.test/failed?booking_id=B1&status=CANCELED');
  });

  it('after IP-410 checks the status again and routes by it', async () => {
    const t = setup();
    await stalled(t);
    t.fake.queues.cancel.push(fails(new BookingError('http', 'x', 409, 'IP-410')));
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.cancel();
    await flush();
    expect(t.navigator.calls.at(-1)?.url).to.equal('https://shop.test/done?booking_id=B1&status=SUCCESS');
  });

  it('pay on the web: an already paid app booking goes to success', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.flow.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(status('SUCCESS'));
    t.flow.payOnWeb();
    await flush();
    expect(t.fake.calls.book).to.have.length(1);
    expect(t.navigator.calls.at(-1)?.url).to.contain('/done?booking_id=B1');
  });

  it('pay on the web: an open app booking is cancelled, then a new web attempt with a new key', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking(), webBooking());
    t.flow.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(status('BOOKED'));
    t.fake.queues.cancel.push(() => Promise.resolve({ booking_id: 'B1', status: 'CANCELED' }));
    t.flow.payOnWeb();
    await flush();
    expect(t.fake.calls.cancel).to.equal(1);
    expect(t.fake.calls.book).to.deep.equal([{ channel: 'app', key: 'key-1' }, { channel: 'web', key: 'key-2' }]);
    expect(t.navigator.calls.at(-1)).to.deep.include({ kind: 'postForm' });
    expect(t.store.load(t.key)?.booking_id).to.equal('W1');
  });
});

describe('payment flow: lifecycle', () => {
  it('dispose drops a late booking answer and frees the button; pressing again reuses the key', async () => {
    const t = setup();
    let answer!: (result: BookResult) => void;
    t.fake.queues.book.push(() => new Promise((resolve) => (answer = resolve)), appBooking());
    t.flow.start();
    t.flow.dispose();
    expect(t.flow.state).to.include({ name: 'idle', busy: false });
    answer({ booking_id: 'B0', correlation_id: 'c', channel: 'app', deeplink: 'https://links.wallet.test/pay/B0' });
    await flush();
    expect(t.navigator.calls).to.deep.equal([]);
    t.flow.start();
    await flush();
    expect(t.fake.calls.book.map((call) => call.key)).to.deep.equal(['key-1', 'key-1']);
    expect(t.navigator.calls).to.deep.equal([{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
  });
});

describe('payment flow: a reload during the booking request', () => {
  it('the reloaded page takes the attempt up again with its key and path, so it books once', async () => {
    const first = setup();
    // The page goes away before the booking answers (the service may have booked already).
    first.fake.queues.book.push(() => new Promise<BookResult>(() => undefined));
    first.flow.start();
    await flush();
    expect(first.store.attempts.get(first.key)).to.equal('mobile:key-1');

    // The new page (same tab storage) even detects another environment: the attempt keeps its path.
    const second = setup({ environment: 'desktop' }, {}, first.store);
    second.fake.queues.book.push(appBooking());
    second.flow.start();
    await flush();
    expect(second.fake.calls.book).to.deep.equal([{ channel: 'app', key: 'key-1' }]);
    expect(second.state.keys, 'no new key was made').to.equal(0);
    // Once the booking is kept the attempt is over: the next payment gets a new key.
    expect(second.store.attempts.size).to.equal(0);
    expect(second.store.load(second.key)?.booking_id).to.equal('B1');
  });

  it('ignores a kept attempt it cannot read and starts a new one', async () => {
    for (const junk of ['toString:k9', 'k9', ':k9', 'tablet:k9']) {
      const store = createMemoryBookingStore();
      const t = setup({}, {}, store);
      store.setAttempt(t.key, junk);
      t.fake.queues.book.push(appBooking());
      t.flow.start();
      await flush();
      expect(t.fake.calls.book, junk).to.deep.equal([{ channel: 'app', key: 'key-1' }]);
    }
  });
});

describe('payment flow: pay on the web failures', () => {
  it('a failing status check is reported, and its retry goes on to the web attempt', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking(), webBooking());
    t.flow.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(fails(new BookingError('network', 'down')), status('FAILED'));
    t.flow.payOnWeb();
    await flush();
    expect(t.flow.state).to.include({ name: 'error', message: 'error.network', canRetry: true });
    expect(t.flow.state.booking?.booking_id).to.equal('B1');
    t.flow.retry();
    await flush();
    expect(t.fake.calls.cancel).to.equal(0);
    expect(t.fake.calls.book.map((call) => call.channel)).to.deep.equal(['app', 'web']);
    expect(t.navigator.calls.at(-1)).to.deep.include({ kind: 'postForm' });
  });

  it('an IP-410 on the way cancels nothing and routes by the fresh status', async () => {
    const t = setup();
    t.fake.queues.book.push(appBooking());
    t.flow.start();
    await flush();
    await t.clock.advance(1500);
    t.fake.queues.status.push(status('PENDING'), status('REVERTED'));
    t.fake.queues.cancel.push(fails(new BookingError('http', 'x', 409, 'IP-410')));
    t.flow.payOnWeb();
    await flush();
    expect(t.fake.calls.book).to.have.length(1);
    expect(t.navigator.calls.at(-1)?.url).to.equal('https://shop.test/failed?booking_id=B1&status=REVERTED');
  });
});

describe('payment flow: no payment', () => {
  it('in a WebView hands over without booking or navigating', () => {
    const t = setup({ environment: 'webview' });
    t.flow.start();
    expect(t.events).to.deep.equal([
      { type: 'webview', order: { id: 'A-1' }, endpoint: 'https://shop.test/pay', success_url: '/done', failure_url: '/failed' },
    ]);
    expect(t.fake.calls.book).to.have.length(0);
    expect(t.navigator.calls).to.have.length(0);
    expect(t.flow.state.name).to.equal('webview');
  });

  it('refuses to start inside a cross-origin frame', () => {
    const t = setup({ blockedByFrame: true });
    expect(t.flow.start()).to.equal(false);
    expect(t.events).to.deep.equal([{ type: 'error', kind: 'framed', message: 'The element is inside a cross-origin frame without allow-framed.' }]);
    expect(t.fake.calls.book).to.have.length(0);
  });

  it('reports a missing order or endpoint as a set-up error', () => {
    const t = setup({ order: null });
    t.flow.start();
    expect(t.flow.state).to.include({ name: 'error', message: 'error.config', canRetry: false });
    const u = setup({ problem: 'environment="tablet" is not auto, desktop, mobile or webview.' });
    u.flow.start();
    expect(u.events[0]).to.include({ kind: 'config' });
  });
});
