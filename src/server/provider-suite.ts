/**
 * `wallet-pay-button/server/provider-suite`: for an adapter of your own, the interface it implements
 * (`PaymentProvider`; an object literal typed with it gets every call's argument and answer types) and
 * the contract every {@link PaymentProvider} keeps, as one suite of tests an adapter runs against its
 * provider's sandbox (the kit's own adapters pass it too).
 * Like the store suite it brings no test runner: it registers its tests with the runner's `test` and
 * checks with the `assert` it is given, so node:test, Vitest and Jest all serve.
 *
 * ```ts
 * import { test } from 'node:test';
 * import assert from 'node:assert/strict';
 * import { runProviderSuite } from 'wallet-pay-button/server/provider-suite';
 * runProviderSuite({
 *   name: 'my wallet', test, assert,
 *   makeProvider: () => myWallet({ key: 'test-key', baseUrl: sandbox.url }),
 *   payBooking: (payment) => payAsAShopper(payment),
 *   expireBooking: () => sandbox.advanceClock('1h'),
 * });
 * ```
 */
import type { Channel } from '../protocol/contract.js';
import type { PaymentProvider, ProviderBooking, ProviderBookingRef, ProviderPayment, ProviderStatus } from './provider.js';
import { ServiceError } from './service-error.js';

export type { PaymentProvider } from './provider.js';

/** The runner's parts the suite uses: node:test's, Vitest's and Jest's `test` fit, and node:assert's or Chai's `assert`. */
interface ProviderSuiteRunner {
  /** Registers one test; the suite's tests each finish within a few seconds on a local sandbox. */
  test(name: string, run: () => Promise<void>): unknown;
  assert: {
    ok(value: unknown, message?: string): void;
    strictEqual(actual: unknown, expected: unknown, message?: string): void;
    deepStrictEqual(actual: unknown, expected: unknown, message?: string): void;
  };
}

/** What the suite is given: the adapter, and the ways to play the shopper and time at its sandbox. */
export interface ProviderSuiteOptions extends ProviderSuiteRunner {
  /** Prefixes each test's name. */
  name: string;
  /** The provider under test, pointed at its sandbox; called once per test. */
  makeProvider(): PaymentProvider | Promise<PaymentProvider>;
  /** Pays the booking at the sandbox as a shopper does, through what `provider.payment` answered for it. */
  payBooking(payment: ProviderPayment, booking: ProviderBookingRef): Promise<void>;
  /** Opens the payment at the sandbox and goes away without paying. Default: the shopper never opens it. */
  leaveBooking?(payment: ProviderPayment, booking: ProviderBookingRef): Promise<void>;
  /** Moves the sandbox's clock (and the provider's, when it has one) past the booking's lifetime. */
  expireBooking(booking: ProviderBookingRef, provider: PaymentProvider): Promise<void>;
  /**
   * The provider pointed at an address where nothing answers: its status check must fail with a
   * `ServiceError`. Default: that check is left out.
   */
  makeUnreachableProvider?(): PaymentProvider | Promise<PaymentProvider>;
  /** Whether the provider's status names the paid amount (the suite then requires the booked one). Default false. */
  statusNamesAmount?: boolean;
  /** The clock a booking's `created_at` is stamped with: the one the provider reads. Default `Date.now`. */
  now?: () => number;
  /** The amount booked, in rupees. Default 100. */
  amount?: number;
  /** The `returnUrl` of each booking. Default `http://127.0.0.1:9/return`. */
  returnUrl?: string;
  /** The `callbackUrl` of each booking. Default `http://127.0.0.1:9/callback`. */
  callbackUrl?: string;
}

const CHANNELS: readonly Channel[] = ['app', 'web'];
const OUTCOMES = ['signed-callback', 'signed-return', 'unsigned-return'];
const OPEN = ['BOOKED', 'PENDING'];

/** Registers the contract's tests, each named `${name}: ...`, on a fresh provider each. */
export function runProviderSuite(options: ProviderSuiteOptions): void {
  const { assert } = options;
  const it = (title: string, run: (provider: PaymentProvider) => Promise<void>) =>
    options.test(`${options.name}: ${title}`, async () => run(await options.makeProvider()));
  const tools = suiteTools(options);
  for (const group of [shapeTests, paymentTests, statusTests, optionalTests]) group(it, assert, tools, options);
}

type It = (title: string, run: (provider: PaymentProvider) => Promise<void>) => void;
type Assert = ProviderSuiteRunner['assert'];
type Tools = ReturnType<typeof suiteTools>;

/** The steps the suite's tests share. */
function suiteTools(options: ProviderSuiteOptions) {
  const { assert } = options;
  const now = options.now ?? Date.now;
  const amount = options.amount ?? 100;
  const reference = () => `ps-${crypto.randomUUID().replaceAll('-', '')}`;

  /** Books on `channel` (default the provider's first) and answers the booking as the kit stores it. */
  const book = async (provider: PaymentProvider, channel: Channel = provider.capabilities.channels[0]!, ref = reference()) => {
    const booked = await provider.book({
      amount,
      reference: ref,
      channel,
      returnUrl: options.returnUrl ?? 'http://127.0.0.1:9/return',
      callbackUrl: options.callbackUrl ?? 'http://127.0.0.1:9/callback',
      orderId: `O-${ref}`,
      properties: { order_id: `O-${ref}` },
    });
    return { booked, ref: refOf(booked, ref, channel, amount, now()) };
  };
  const paid = async (provider: PaymentProvider) => {
    const { ref } = await book(provider);
    await options.payBooking(await provider.payment(ref), ref);
    return ref;
  };
  /** The error `run` fails with; the suite fails when it does not. */
  const failure = async (run: () => Promise<unknown>, what: string): Promise<unknown> => {
    try {
      await run();
    } catch (error) {
      return error;
    }
    assert.ok(false, `${what} fails`);
    return undefined;
  };
  const isOpen = (status: ProviderStatus, what: string) => assert.ok(OPEN.includes(status.status), `${what} is BOOKED or PENDING; got ${status.status}`);

  return { book, paid, failure, isOpen, amount };
}

function refOf(booked: ProviderBooking, transactionUuid: string, channel: Channel, amount: number, createdAt: number): ProviderBookingRef {
  return {
    booking_id: booked.booking_id,
    correlation_id: booked.correlation_id,
    transaction_uuid: transactionUuid,
    channel,
    amount,
    deeplink: booked.deeplink ?? '',
    provider_data: booked.data ?? '',
    created_at: createdAt,
  };
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isPositive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

const UNSAFE = ['javascript:', 'data:', 'vbscript:', 'blob:', 'file:'];

function protocolOf(value: unknown): string {
  try {
    return new URL(String(value)).protocol;
  } catch {
    return '';
  }
}

function absolute(value: unknown, protocols: readonly string[]): boolean {
  try {
    return typeof value === 'string' && protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The provider's name, keys and capabilities; the ids a book answers. */
function shapeTests(it: It, assert: Assert, { book }: Tools): void {
  it('names itself, its wallet and account, and states well-formed capabilities', async (provider) => {
    for (const field of ['name', 'wallet', 'account', 'secret'] as const) assert.ok(isText(provider[field]), `${field} is a non-empty string`);
    const { channels, cancel, outcome, refund, bookingLifetimeMs, minAmount } = provider.capabilities;
    assert.ok(Array.isArray(channels) && channels.length > 0, 'at least one channel');
    assert.strictEqual(new Set(channels).size, channels.length, 'each channel once');
    assert.deepStrictEqual(channels.filter((channel) => !CHANNELS.includes(channel)), [], 'channels are app and web');
    assert.strictEqual(typeof cancel, 'boolean', 'cancel is a boolean');
    assert.strictEqual(typeof refund, 'boolean', 'refund is a boolean');
    assert.ok(OUTCOMES.includes(outcome), `outcome is one of ${OUTCOMES.join(', ')}; got ${String(outcome)}`);
    assert.ok(isPositive(bookingLifetimeMs), `bookingLifetimeMs is a positive number; got ${String(bookingLifetimeMs)}`);
    assert.ok(isPositive(minAmount), `minAmount is a positive number; got ${String(minAmount)}`);
    for (const call of ['book', 'payment', 'status'] as const) assert.strictEqual(typeof provider[call], 'function', `${call} is a function`);
  });

  it('book answers ids, different for each reference, and keeps only text', async (provider) => {
    const first = await book(provider);
    const second = await book(provider);
    for (const { booked } of [first, second]) {
      assert.ok(isText(booked.booking_id) && isText(booked.correlation_id), `ids are non-empty strings: ${JSON.stringify(booked)}`);
      assert.ok(booked.data === undefined || typeof booked.data === 'string', 'data is text, when kept');
    }
    assert.ok(first.booked.booking_id !== second.booked.booking_id, 'each reference its own booking_id');
    assert.ok(first.booked.correlation_id !== second.booked.correlation_id, 'each reference its own correlation_id');
  });
}

/** What the browser follows, on every channel the provider has. */
function paymentTests(it: It, assert: Assert, { book }: Tools): void {
  it('payment answers a deeplink for app and an absolute web payment for web, the same twice for a booking', async (provider) => {
    for (const channel of provider.capabilities.channels) {
      const { ref } = await book(provider, channel);
      const payment = await provider.payment(ref);
      if (channel === 'app') {
        // A wallet's deeplink may be a custom scheme; never one that runs code in the page.
        const deeplink = 'deeplink' in payment ? payment.deeplink : undefined;
        assert.ok(absolute(deeplink, ['https:', 'http:']) || (absolute(deeplink, [protocolOf(deeplink)]) && !UNSAFE.includes(protocolOf(deeplink))), `app: an absolute deeplink; got ${JSON.stringify(payment)}`);
      } else {
        assert.ok('web_payment' in payment, `web: a web payment; got ${JSON.stringify(payment)}`);
        const web = 'web_payment' in payment ? payment.web_payment : undefined;
        assert.ok(absolute(web?.url, ['https:', 'http:']), `web: an absolute http(s) URL; got ${String(web?.url)}`);
        assert.ok(web?.method === 'POST' || web?.method === 'GET', `web: GET or POST; got ${String(web?.method)}`);
        const fields = Object.values(web?.fields ?? {});
        assert.ok(fields.every((value) => typeof value === 'string'), 'web: every field is text');
      }
      assert.deepStrictEqual(await provider.payment(ref), payment, `${channel}: the same answer again for the same booking`);
    }
  });
}

/** The status of a booking through its life: fresh, left, paid, expired. */
function statusTests(it: It, assert: Assert, { book, paid, isOpen, amount }: Tools, options: ProviderSuiteOptions): void {
  it('a fresh booking is BOOKED or PENDING, and still so once the shopper opened it and left', async (provider) => {
    const { ref } = await book(provider);
    isOpen(await provider.status(ref), 'a fresh booking');
    if (!options.leaveBooking) return;
    await options.leaveBooking(await provider.payment(ref), ref);
    isOpen(await provider.status(ref), 'a left booking');
  });

  it('a paid booking is SUCCESS with its amount, again when asked again', async (provider) => {
    const ref = await paid(provider);
    for (const turn of ['first', 'second']) {
      const status = await provider.status(ref);
      assert.strictEqual(status.status, 'SUCCESS', `${turn} check of a paid booking`);
      if (options.statusNamesAmount || status.amount !== undefined) assert.strictEqual(status.amount, amount, `${turn} check: the booked amount`);
    }
  });

  it('a booking left past its lifetime is CANCELED', async (provider) => {
    const { ref } = await book(provider);
    if (options.leaveBooking) await options.leaveBooking(await provider.payment(ref), ref);
    await options.expireBooking(ref, provider);
    assert.strictEqual((await provider.status(ref)).status, 'CANCELED');
  });
}

/** The optional calls: present exactly when the capabilities say, and failing as the interface says. */
function optionalTests(it: It, assert: Assert, { book, paid, failure }: Tools, options: ProviderSuiteOptions): void {
  it('cancel is there exactly with capabilities.cancel: an open booking is CANCELED, a paid one fails with IP-410', async (provider) => {
    assert.strictEqual(typeof provider.cancel === 'function', provider.capabilities.cancel, 'cancel iff capabilities.cancel');
    if (!provider.cancel) return;
    const { ref } = await book(provider);
    assert.strictEqual((await provider.cancel(ref)).status, 'CANCELED', 'an open booking is cancelled');
    const done = await paid(provider);
    const error = await failure(() => provider.cancel!(done), 'cancelling a paid booking');
    assert.ok(error instanceof ServiceError, `a ServiceError; got ${String(error)}`);
    assert.strictEqual((error as ServiceError).code, 'IP-410');
    assert.strictEqual((error as ServiceError).kind, 'rejected');
    assert.strictEqual((await provider.status(done)).status, 'SUCCESS', 'the paid booking stays paid');
  });

  it("callback is there exactly with outcome 'signed-callback', refund exactly with capabilities.refund", async (provider) => {
    const signed = provider.capabilities.outcome === 'signed-callback';
    assert.strictEqual(typeof provider.callback === 'function', signed, "callback iff outcome is 'signed-callback'");
    assert.strictEqual(typeof provider.refund === 'function', provider.capabilities.refund, 'refund iff capabilities.refund');
    if (!provider.callback) return;
    const body = JSON.stringify({ correlation_id: 'forged', status: 'SUCCESS', amount: 1, signature: 'AAAA' });
    const error = await failure(() => provider.callback!(body), 'a callback with a forged signature');
    assert.ok(error instanceof Error && 'code' in error && /^IP-\d{3}$/.test(String(error.code)), `a coded refusal; got ${String(error)}`);
  });

  if (options.makeUnreachableProvider) {
    const makeUnreachable = options.makeUnreachableProvider.bind(options);
    it('a provider that cannot be reached fails with a ServiceError of its kind', async (provider) => {
      const { ref } = await book(provider);
      const unreachable = await makeUnreachable();
      const error = await failure(() => unreachable.status(ref), 'a status check where nothing answers');
      assert.ok(error instanceof ServiceError, `a ServiceError; got ${String(error)}`);
      const { kind, operation } = error as ServiceError;
      assert.ok(kind === 'unavailable' || kind === 'timeout', `kind unavailable or timeout; got ${kind}`);
      assert.strictEqual(operation, 'status');
    });
  }
}
