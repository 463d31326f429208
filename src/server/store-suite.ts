/**
 * `wallet-pay-button/server/store-suite`: the rules every {@link PaymentStore} keeps, as one suite of
 * tests a merchant runs against a store of their own (the memory and PostgreSQL stores pass it too),
 * and the record a store keeps (`StoredBooking`). The store implements `PaymentStore` from
 * `wallet-pay-button/server`; an object literal typed with it gets every method's argument and answer types.
 * It brings no test runner: it registers its tests with the runner's `test` and checks with the
 * `assert` it is given, so node:test, Vitest and Jest all serve.
 *
 * ```ts
 * import { test } from 'node:test';
 * import assert from 'node:assert/strict';
 * import { storeSuite } from 'wallet-pay-button/server/store-suite';
 * storeSuite('my store', async () => createMyStore(await freshDatabase()), { test, assert });
 * ```
 */
import type { PaymentStatus } from '../protocol/contract.js';
import type { BookingOpening, LeaseHold, OrderState, PaymentStore, StoredBooking } from './store.js';

export type { StoredBooking } from './store.js';

/** The runner's parts the suite uses: node:test's, Vitest's and Jest's `test` fit, and node:assert's or Chai's `assert`. */
interface StoreSuiteRunner {
  /** Registers one test; the suite's tests each finish within a few seconds. */
  test(name: string, run: () => Promise<void>): unknown;
  assert: {
    ok(value: unknown, message?: string): void;
    strictEqual(actual: unknown, expected: unknown, message?: string): void;
    deepStrictEqual(actual: unknown, expected: unknown, message?: string): void;
  };
}

/** A booking for the suite's tests: `n` picks its ids, `extra` overrides fields. */
export function sampleBooking(n: number, extra: Partial<StoredBooking> = {}): StoredBooking {
  return {
    booking_id: `bk-${n}`,
    correlation_id: `cr-${n}`,
    transaction_uuid: `tx-${n}`,
    idempotency_key: `key-${n}`,
    fingerprint: `["v2","app","O-${n}"]`,
    channel: 'app',
    order: { id: `O-${n}`, lines: [{ sku: 'T', qty: 2 }] },
    order_key: `order-${n}`,
    amount: n + 0.5,
    deeplink: `http://links.test/pay/bk-${n}`,
    provider: 'esewa-intent',
    provider_data: '',
    created_at: 1_000 * n,
    ...extra,
  };
}

/** Long enough that no test outlives it; {@link ENDED_MS} ends before the suite's next step. */
const HELD_MS = 60_000;
const ENDED_MS = 1;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Past a lease of {@link ENDED_MS} by any store's clock that moves with real time. */
const pastEnd = () => pause(30);
/** A value with every booking's `created_at` set aside: the store stamps it by its own clock, so only the rest is compared. */
const unstamped = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null', (key, field: unknown) => (key === 'created_at' && typeof field === 'number' ? 'stamped' : field));

/**
 * Registers the contract's tests, each named `${name}: ...`. `makeStore` gives an empty store for each
 * test (a fresh database, table prefix or instance); its clock must move with real time.
 */
export function storeSuite(name: string, makeStore: () => PaymentStore | Promise<PaymentStore>, { test, assert }: StoreSuiteRunner): void {
  const it: It = (title, run) => test(`${name}: ${title}`, async () => run(await makeStore()));
  const tools = suiteTools(assert);
  for (const group of [bookingTests, providerTests, leaseTests, resultTests, judgedTests, checkTests]) group(it, assert, tools);
}

/** Registers one test of the suite on a fresh store. */
type It = (title: string, run: (store: PaymentStore) => Promise<void>) => void;
type Assert = StoreSuiteRunner['assert'];
type Tools = ReturnType<typeof suiteTools>;

/** The steps the suite's tests share. */
function suiteTools(assert: Assert) {
  const begin = (store: PaymentStore, key: string, owner: string, leaseMs = HELD_MS, orderKey = 'same') =>
    store.beginBooking({ key, orderKey, lease: `order:${orderKey}`, owner, leaseMs });
  const holdOf = (opening: BookingOpening, owner: string, orderKey = 'same'): LeaseHold => {
    assert.strictEqual(opening.status, 'leased', `${owner} takes the order's lease`);
    const token = opening.status === 'leased' ? opening.token : NaN;
    assert.ok(Number.isSafeInteger(token), `a fencing token is an integer; got ${String(token)}`);
    return { lease: `order:${orderKey}`, owner, token };
  };
  const claim = async (store: PaymentStore, correlationId: string, status: PaymentStatus, owner: string, leaseMs = HELD_MS, hold?: LeaseHold) =>
    (await store.claimResult({ correlationId, status, owner, leaseMs, ...(hold && { hold }) })).claim;
  const deliver = async (store: PaymentStore, correlationId: string, status: PaymentStatus, owner = 'x') => {
    assert.strictEqual(await claim(store, correlationId, status, owner), 'claimed');
    await store.completeResult({ correlationId, status, owner });
  };
  const order = async (store: PaymentStore, orderKey = 'same') => {
    const { open, paid } = await store.getOrderState({ orderKey });
    return { open: open.map((b) => b.booking_id), paid: paid?.booking_id };
  };

  return { begin, holdOf, claim, deliver, order };
}

/** Judged claims: a claim answers its booking, its known results and, judged, its order, read in its own step. */
function judgedTests(it: It, assert: Assert, { deliver }: Tools): void {
  const judged = (store: PaymentStore, n: number, owner = 'a', status: PaymentStatus = 'SUCCESS') =>
    store.claimResult({ correlationId: `cr-${n}`, status, owner, leaseMs: HELD_MS, judge: true });
  const counted = (state: OrderState | undefined) => [state?.paidAmount, state?.paidOpen, state?.open.map((b) => b.booking_id)];

  it('a claim answers its booking and the results known before it; judged, its order as it was before the claim', async (store) => {
    for (const n of [1, 2]) await store.insertBooking({ booking: sampleBooking(n, { order_key: 'same' }) });
    await deliver(store, 'cr-1', 'PENDING');
    const plain = await store.claimResult({ correlationId: 'cr-1', status: 'FAILED', owner: 'a', leaseMs: HELD_MS });
    assert.deepStrictEqual([plain.claim, unstamped(plain.booking), plain.known, plain.order], ['claimed', unstamped(sampleBooking(1, { order_key: 'same' })), [{ status: 'PENDING', state: 'delivered' }], undefined]);
    await store.releaseResult({ correlationId: 'cr-1', status: 'FAILED', owner: 'a' });
    const first = await judged(store, 1);
    assert.deepStrictEqual([first.claim, counted(first.order)], ['claimed', [0, [], ['bk-1', 'bk-2']]], 'nothing paid before the first');
    const second = await judged(store, 2, 'b');
    assert.deepStrictEqual([second.claim, counted(second.order)], ['claimed', [1.5, ['bk-1'], ['bk-1', 'bk-2']]], 'the first counts once claimed');
    const unknown = await judged(store, 9);
    assert.deepStrictEqual([unknown.claim, unknown.booking, unknown.order], ['claimed', undefined, undefined], 'a result of no booking is claimed unjudged');
    await store.completeResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a' });
    const again = await judged(store, 1, 'c');
    assert.deepStrictEqual([again.claim, again.order, again.known.find((r) => r.status === 'SUCCESS')?.state], ['delivered', undefined, 'delivered']);
  });

  it('two judged claims of one order at once: exactly one reads the other as paid', async (store) => {
    for (let round = 0; round < 5; round++) {
      const orderKey = `twice-${round}`;
      const [x, y] = [10 + 2 * round, 11 + 2 * round];
      for (const n of [x, y]) await store.insertBooking({ booking: sampleBooking(n, { order_key: orderKey }) });
      const answers = await Promise.all([judged(store, x, 'a'), judged(store, y, 'b')]);
      assert.deepStrictEqual(answers.map((a) => a.claim), ['claimed', 'claimed']);
      const sawOther = answers.map((a, i) => a.order?.paidOpen?.includes(`bk-${i === 0 ? y : x}`) === true);
      assert.deepStrictEqual(sawOther.filter(Boolean).length, 1, `round ${round}: ${JSON.stringify(sawOther)}`);
    }
  });

  it('a hold whose lease ended is current no more, though nobody took it over: its insert and claim are stale, and it is not renewed', async (store) => {
    const opening = await store.beginBooking({ key: 'key-1', orderKey: 'same', lease: 'order:same', owner: 'a', leaseMs: ENDED_MS });
    assert.strictEqual(opening.status, 'leased');
    const hold: LeaseHold = { lease: 'order:same', owner: 'a', token: opening.status === 'leased' ? opening.token : NaN };
    await pastEnd();
    assert.strictEqual(await store.renewLease({ ...hold, leaseMs: HELD_MS }), false, 'an ended lease is not renewed');
    await store.insertBooking({ booking: sampleBooking(2, { order_key: 'same' }) });
    assert.strictEqual((await store.claimResult({ correlationId: 'cr-2', status: 'CANCELED', owner: 'a', leaseMs: HELD_MS, hold })).claim, 'stale', 'a claim under it');
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same' }), hold }), 'stale', 'an insert under it');
    assert.strictEqual(await store.getBookingByKey({ key: 'key-1' }), undefined, 'nothing saved');
  });

  it("a judged claim is busy while another owner holds the order's paid lease, and claims nothing", async (store) => {
    await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same' }) });
    const token = await store.acquireLease({ lease: 'paid:same', owner: 'tool', leaseMs: HELD_MS });
    assert.ok(token !== undefined, 'the paid lease is free');
    assert.strictEqual((await judged(store, 1)).claim, 'busy');
    assert.deepStrictEqual(await store.getResults({ correlationId: 'cr-1' }), [], 'nothing claimed');
    await store.releaseLease({ lease: 'paid:same', owner: 'tool', token: token! });
    assert.strictEqual((await judged(store, 1)).claim, 'claimed', 'free once let go');
  });
}

/** Bookings: one per key, and the step that begins a book. */
function bookingTests(it: It, assert: Assert, { begin, holdOf, claim, deliver }: Tools): void {
  it('keeps bookings by key and correlation id, read with their delivered results, and hands out copies', async (store) => {
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(1) }), 'saved');
    assert.deepStrictEqual(unstamped(await store.getBookingByKey({ key: 'key-1' })), unstamped(sampleBooking(1)));
    const found = await store.findBookingByCorrelationId({ correlationId: 'cr-1' });
    assert.deepStrictEqual(unstamped(found), unstamped(sampleBooking(1)));
    found!.amount = 999;
    assert.deepStrictEqual(unstamped(await store.getBookingState({ bookingId: 'bk-1' })), unstamped({ booking: sampleBooking(1), delivered: [] }));
    assert.strictEqual(await store.getBookingByKey({ key: 'key-2' }), undefined);
    assert.strictEqual(await store.findBookingByCorrelationId({ correlationId: 'cr-2' }), undefined);
    assert.strictEqual(await store.getBookingState({ bookingId: 'bk-2' }), undefined);
    await deliver(store, 'cr-1', 'PENDING');
    await claim(store, 'cr-1', 'SUCCESS', 'a');
    assert.deepStrictEqual((await store.getBookingState({ bookingId: 'bk-1' }))?.delivered, ['PENDING'], 'claimed is not delivered');
    await store.completeResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a' });
    assert.deepStrictEqual((await store.getBookingState({ bookingId: 'bk-1' }))?.delivered.sort(), ['PENDING', 'SUCCESS']);
  });

  it('one booking per key: of concurrent inserts one is saved, the others are told the key is taken', async (store) => {
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => store.insertBooking({ booking: sampleBooking(n, { idempotency_key: 'shared' }) })));
    assert.deepStrictEqual(outcomes.sort(), ['saved', 'taken', 'taken', 'taken']);
    const kept = await store.getBookingByKey({ key: 'shared' });
    assert.ok(kept, 'the key has its booking');
    for (const n of [1, 2, 3, 4]) {
      if (`cr-${n}` !== kept!.correlation_id) assert.strictEqual(await store.findBookingByCorrelationId({ correlationId: `cr-${n}` }), undefined);
    }
  });

  it("a book begins in one step: the key's booking, or the order's lease under a new token with the order read under it, or busy", async (store) => {
    await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same' }) });
    assert.deepStrictEqual(unstamped(await begin(store, 'key-1', 'a')), unstamped({ status: 'booked', booking: sampleBooking(1, { order_key: 'same' }) }));
    const opened = await begin(store, 'key-2', 'a');
    const first = holdOf(opened, 'a');
    assert.deepStrictEqual(opened.status === 'leased' && opened.order.open.map((b) => b.booking_id), ['bk-1']);
    assert.deepStrictEqual(await begin(store, 'key-3', 'b'), { status: 'busy' }, 'another owner waits');
    assert.deepStrictEqual(unstamped(await begin(store, 'key-1', 'b')), unstamped({ status: 'booked', booking: sampleBooking(1, { order_key: 'same' }) }), 'a known key does not');

    // Saved and released in one step: the next book of the order finds the booking under the lease.
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(2, { order_key: 'same' }), hold: first }), 'saved');
    const next = await begin(store, 'key-3', 'b');
    const second = holdOf(next, 'b');
    assert.ok(second.token > first.token, `tokens grow: ${first.token}, then ${second.token}`);
    assert.deepStrictEqual(next.status === 'leased' && next.order.open.map((b) => b.booking_id), ['bk-1', 'bk-2']);
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(3, { idempotency_key: 'key-2', order_key: 'same' }), hold: second }), 'taken');
    holdOf(await begin(store, 'key-4', 'c'), 'c');
  });
}

/** A booking's provider and the adapter's text, as several adapters write them: each read back unchanged, by every read. */
function providerTests(it: It, assert: Assert, { begin, holdOf }: Tools): void {
  it("keeps each booking's provider and provider data unchanged, by every read that answers a booking", async (store) => {
    // Text an adapter may keep: JSON with quotes, backslashes and line breaks, non-Latin script, a long
    // value; and none at all.
    const data = JSON.stringify({ pidx: 'HT6o6PEZRWFJ5ygavzHWd5', note: 'नेपाल "चिया" 🍵\n\\ \'x\'', pad: 'p'.repeat(5_000) });
    const made = [
      sampleBooking(1, { order_key: 'same', provider: 'khalti', provider_data: data }),
      sampleBooking(2, { order_key: 'same', provider: 'esewa-epay', provider_data: '{"signed_field_names":"total_amount,transaction_uuid"}' }),
      sampleBooking(3, { order_key: 'same', provider: 'esewa-intent', provider_data: '' }),
    ];
    const opening = await begin(store, 'key-1', 'a');
    assert.strictEqual(await store.insertBooking({ booking: made[0]!, hold: holdOf(opening, 'a') }), 'saved');
    for (const booking of made.slice(1)) assert.strictEqual(await store.insertBooking({ booking }), 'saved');
    const fields = (b: StoredBooking | undefined) => b && [b.booking_id, b.provider, b.provider_data];
    const expected = made.map(fields);
    for (const [i, b] of made.entries()) {
      assert.deepStrictEqual(fields(await store.getBookingByKey({ key: b.idempotency_key })), expected[i], `getBookingByKey of ${b.booking_id}`);
      assert.deepStrictEqual(fields(await store.findBookingByCorrelationId({ correlationId: b.correlation_id })), expected[i], 'findBookingByCorrelationId');
      assert.deepStrictEqual(fields((await store.getBookingState({ bookingId: b.booking_id }))?.booking), expected[i], 'getBookingState');
      const known = await begin(store, b.idempotency_key, 'b');
      assert.deepStrictEqual(fields(known.status === 'booked' ? known.booking : undefined), expected[i], 'beginBooking of a known key');
    }
    const sorted = (list: StoredBooking[]) => list.map(fields).sort((x, y) => String(x![0]).localeCompare(String(y![0])));
    assert.deepStrictEqual(sorted((await store.getOrderState({ orderKey: 'same' })).open), expected, 'getOrderState');
    const leased = await begin(store, 'key-9', 'c');
    assert.deepStrictEqual(leased.status === 'leased' && sorted(leased.order.open), expected, "a book's read of the order");
    const checked = await store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs: 0, limit: 10, owner: 'd', leaseMs: HELD_MS });
    assert.deepStrictEqual(sorted(checked), expected, 'claimOpenBookings');
    assert.deepStrictEqual(unstamped(await store.getBookingByKey({ key: 'key-1' })), unstamped(made[0]), 'and every other field with them');
  });
}

/** Fenced leases: the order's, and named ones. */
function leaseTests(it: It, assert: Assert, { begin, holdOf, claim }: Tools): void {
  it('a fenced lease: renewed and released under its token only, never once ended; taken over once ended, and the old hold can write nothing', async (store) => {
    const first = holdOf(await begin(store, 'key-1', 'a', ENDED_MS), 'a');
    await pastEnd();
    assert.strictEqual(await store.renewLease({ ...first, leaseMs: ENDED_MS }), false, 'ended, though not taken over: renewed by nothing');
    const second = holdOf(await begin(store, 'key-2', 'b'), 'b');
    assert.ok(second.token > first.token, `a take-over gets a greater token: ${first.token}, then ${second.token}`);
    assert.strictEqual(await store.renewLease({ ...first, leaseMs: HELD_MS }), false, 'the old holder cannot renew');
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same' }), hold: first }), 'stale');
    assert.strictEqual(await store.getBookingByKey({ key: 'key-1' }), undefined, 'nothing saved under a stale token');
    assert.strictEqual(await claim(store, 'cr-9', 'CANCELED', 'a', HELD_MS, first), 'stale');
    assert.deepStrictEqual(await store.getResults({ correlationId: 'cr-9' }), [], 'nothing claimed under a stale token');
    await store.releaseLease(first);
    assert.deepStrictEqual(await begin(store, 'key-3', 'c'), { status: 'busy' }, "the old holder's release does nothing");
    assert.strictEqual(await store.renewLease({ ...second, leaseMs: HELD_MS }), true);
    assert.strictEqual(await claim(store, 'cr-9', 'CANCELED', 'b', HELD_MS, second), 'claimed', 'a claim under the current hold');

    // The holder begins again (its own lease): a new token, and its earlier hold is stale.
    const again = holdOf(await begin(store, 'key-4', 'b'), 'b');
    assert.ok(again.token > second.token);
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(5, { order_key: 'same' }), hold: second }), 'stale');
    await store.releaseLease(again);
    const third = holdOf(await begin(store, 'key-6', 'c'), 'c');
    assert.ok(third.token > again.token, 'a token never comes back after a release');
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(6, { order_key: 'same' }), hold: third }), 'saved');
    assert.strictEqual(await store.renewLease({ ...third, leaseMs: HELD_MS }), false, 'a saved booking ended the lease');
  });

  it('a named lease (acquireLease): taken under a new token, busy for another owner while it holds, taken over once ended; a claim under the old hold is refused', async (store) => {
    const first = await store.acquireLease({ lease: 'paid:same', owner: 'a', leaseMs: ENDED_MS });
    assert.ok(typeof first === 'number', `a free lease is taken under a token; got ${String(first)}`);
    const held = await store.acquireLease({ lease: 'paid:held', owner: 'a', leaseMs: HELD_MS });
    assert.strictEqual(await store.acquireLease({ lease: 'paid:held', owner: 'b', leaseMs: HELD_MS }), undefined, 'another owner waits while it holds');
    await pastEnd();
    const second = await store.acquireLease({ lease: 'paid:same', owner: 'b', leaseMs: HELD_MS });
    assert.ok(typeof second === 'number' && second > first!, `taken over once ended, under a greater token: ${String(first)}, then ${String(second)}`);
    const old: LeaseHold = { lease: 'paid:same', owner: 'a', token: first! };
    assert.strictEqual(await claim(store, 'cr-7', 'SUCCESS', 'a', HELD_MS, old), 'stale', 'a claim under the taken-over hold');
    assert.strictEqual(await claim(store, 'cr-7', 'SUCCESS', 'b', HELD_MS, { lease: 'paid:same', owner: 'b', token: second! }), 'claimed');
    await store.releaseLease({ lease: 'paid:held', owner: 'a', token: held! });
    assert.ok(typeof (await store.acquireLease({ lease: 'paid:held', owner: 'b', leaseMs: HELD_MS })) === 'number', 'free again once released');
  });

  it("a take-over racing the old holder's insert: the insert is saved and the new holder reads it, or it is refused as stale", async (store) => {
    for (let n = 1; n <= 20; n++) {
      const orderKey = `race-${n}`;
      const old = holdOf(await begin(store, `old-${n}`, 'a', ENDED_MS, orderKey), 'a', orderKey);
      await pastEnd();
      const [inserted, opening] = await Promise.all([
        store.insertBooking({ booking: sampleBooking(n, { order_key: orderKey }), hold: old }),
        begin(store, `new-${n}`, 'b', HELD_MS, orderKey),
      ]);
      const seen = opening.status === 'leased' ? opening.order.open.map((b) => b.booking_id) : undefined;
      if (inserted === 'saved') {
        // Saved first (the lease ended by it) or taken over after: the new holder reads the booking, or
        // found the lease still held by the insert's statement and is told busy.
        assert.ok(opening.status === 'busy' || (seen?.length === 1 && seen[0] === `bk-${n}`), `saved, then ${JSON.stringify(opening)}`);
      } else {
        assert.strictEqual(inserted, 'stale');
        assert.deepStrictEqual(seen, [], 'refused: the new holder reads no booking');
        assert.strictEqual(await store.getBookingByKey({ key: `key-${n}` }), undefined);
      }
    }
  });

  it('of concurrent books of one order, one takes the lease', async (store) => {
    const openings = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((owner, n) => begin(store, `key-${n}`, owner)));
    assert.strictEqual(openings.filter((o) => o.status === 'leased').length, 1, JSON.stringify(openings.map((o) => o.status)));
  });
}

/** Results: claimed and delivered once, and what makes an order paid. */
function resultTests(it: It, assert: Assert, { begin, claim, deliver, order }: Tools): void {
  it('a result is claimed once, delivered once, released on failure, taken over after its lease', async (store) => {
    await store.insertBooking({ booking: sampleBooking(1) });
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'a'), 'claimed');
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'b'), 'busy');
    assert.strictEqual(await claim(store, 'cr-1', 'REVERTED', 'b'), 'claimed', 'another status is another result');
    await store.releaseResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a' });
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'b', ENDED_MS), 'claimed', 'released: free again');
    await pastEnd();
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'c'), 'claimed', 'b died: taken over after its lease');
    await store.completeResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'b' });
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'd'), 'busy', "a dead owner's late completion does not count");
    await store.completeResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'c' });
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'd'), 'delivered');
    await store.releaseResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'c' });
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'd'), 'delivered', 'a delivered result stays delivered');
  });

  it("a booking's results are read per status, claimed or delivered, without claiming anything", async (store) => {
    await store.insertBooking({ booking: sampleBooking(1) });
    assert.deepStrictEqual(await store.getResults({ correlationId: 'cr-1' }), []);
    await deliver(store, 'cr-1', 'PENDING');
    await claim(store, 'cr-1', 'SUCCESS', 'a');
    const read = async () => (await store.getResults({ correlationId: 'cr-1' })).sort((x, y) => x.status.localeCompare(y.status));
    assert.deepStrictEqual(await read(), [{ status: 'PENDING', state: 'delivered' }, { status: 'SUCCESS', state: 'claimed' }]);
    assert.deepStrictEqual(await store.getResults({ correlationId: 'cr-1' }).then((r) => r.length), 2, 'reading twice changes nothing');
    assert.strictEqual(await claim(store, 'cr-1', 'FAILED', 'b'), 'claimed', 'a status only read is free to claim');
    await store.releaseResult({ correlationId: 'cr-1', status: 'FAILED', owner: 'b' });
    await store.releaseResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a' });
    assert.deepStrictEqual(await read(), [{ status: 'PENDING', state: 'delivered' }]);
  });

  it('an order is paid once a SUCCESS of one of its bookings is claimed for delivery or delivered, until a refund of it is delivered', async (store) => {
    await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same' }) });
    await store.insertBooking({ booking: sampleBooking(2, { order_key: 'same' }) });
    await store.insertBooking({ booking: sampleBooking(3) });
    assert.deepStrictEqual(await order(store), { open: ['bk-1', 'bk-2'], paid: undefined });
    assert.deepStrictEqual(await order(store, 'nothing'), { open: [], paid: undefined });
    await store.getResults({ correlationId: 'cr-2' });
    assert.deepStrictEqual(await order(store), { open: ['bk-1', 'bk-2'], paid: undefined }, 'a read of its results pays nothing');

    await claim(store, 'cr-2', 'SUCCESS', 'a');
    assert.deepStrictEqual(await order(store), { open: ['bk-1', 'bk-2'], paid: 'bk-2' }, 'known while its delivery runs');
    await store.releaseResult({ correlationId: 'cr-2', status: 'SUCCESS', owner: 'a' });
    assert.deepStrictEqual(await order(store), { open: ['bk-1', 'bk-2'], paid: undefined }, 'released: open, for the service to answer');
    await deliver(store, 'cr-2', 'SUCCESS');
    assert.deepStrictEqual(await order(store), { open: ['bk-1'], paid: 'bk-2' }, 'delivered: settled, and still paid');
    assert.deepStrictEqual(unstamped((await store.getOrderState({ orderKey: 'same' })).paid), unstamped(sampleBooking(2, { order_key: 'same' })));
    const opening = await begin(store, 'key-9', 'a');
    assert.strictEqual(opening.status === 'leased' && opening.order.paid?.booking_id, 'bk-2', 'a book reads it too');
    assert.deepStrictEqual(await order(store, 'order-3'), { open: ['bk-3'], paid: undefined }, 'another order is not');

    await deliver(store, 'cr-1', 'CANCELED');
    assert.deepStrictEqual(await order(store), { open: [], paid: 'bk-2' }, 'a cancelled booking is not paid');
    await claim(store, 'cr-2', 'REVERTED', 'a');
    assert.deepStrictEqual(await order(store), { open: [], paid: 'bk-2' }, 'a refund counts once it is delivered');
    await store.completeResult({ correlationId: 'cr-2', status: 'REVERTED', owner: 'a' });
    assert.deepStrictEqual(await order(store), { open: [], paid: undefined }, 'refunded: payable again');
  });

  it('of two paid bookings of an order, the one still being delivered is the paid one, and both are counted once', async (store) => {
    // The book counts what `paidAmount` (or `paid`) says, then each open booking the service calls
    // paid except `paid`: a settled `paid` beside an open paid booking would count the open one twice.
    await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same', amount: 100 }) });
    await pause(5); // created_at: bk-1 is the older by any store's clock
    await store.insertBooking({ booking: sampleBooking(2, { order_key: 'same', amount: 250 }) });
    await deliver(store, 'cr-1', 'SUCCESS');
    assert.strictEqual(await claim(store, 'cr-2', 'SUCCESS', 'a'), 'claimed');
    const counted = (state: OrderState) => state.paidAmount ?? state.paid?.amount;
    const state = await store.getOrderState({ orderKey: 'same' });
    assert.deepStrictEqual([state.open.map((b) => b.booking_id), state.paid?.booking_id], [['bk-2'], 'bk-2'], 'the open paid booking is the paid one');
    assert.strictEqual(counted(state), 350, 'both paid bookings count');
    const opening = await begin(store, 'key-9', 'b');
    if (opening.status !== 'leased') throw new Error(`a book takes the lease; got ${opening.status}`);
    assert.deepStrictEqual([opening.order.open.map((b) => b.booking_id), opening.order.paid?.booking_id], [['bk-2'], 'bk-2'], 'a book reads it so too');
    assert.strictEqual(counted(opening.order), 350, 'a book counts both');
    await store.completeResult({ correlationId: 'cr-2', status: 'SUCCESS', owner: 'a' });
    assert.strictEqual(counted(await store.getOrderState({ orderKey: 'same' })), 350, 'delivered: both still count');
  });

  it('of two paid bookings both still being delivered, each is named as counted already, so none counts twice', async (store) => {
    // The book counts `paidAmount`, then each open booking the service calls paid but those of
    // `paidOpen`: naming only one of the two would count the other twice (an unpaid balance refused as paid).
    await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same', amount: 100 }) });
    await pause(5);
    await store.insertBooking({ booking: sampleBooking(2, { order_key: 'same', amount: 250 }) });
    await store.insertBooking({ booking: sampleBooking(3, { order_key: 'same', amount: 400 }) });
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'a'), 'claimed');
    assert.strictEqual(await claim(store, 'cr-2', 'SUCCESS', 'b'), 'claimed');
    const named = (state: OrderState) => [state.paidAmount, [...(state.paidOpen ?? [])].sort(), state.open.map((b) => b.booking_id).sort()];
    assert.deepStrictEqual(named(await store.getOrderState({ orderKey: 'same' })), [350, ['bk-1', 'bk-2'], ['bk-1', 'bk-2', 'bk-3']], 'both counted and named; bk-3 is open and unpaid');
    const opening = await begin(store, 'key-9', 'c');
    if (opening.status !== 'leased') throw new Error(`a book takes the lease; got ${opening.status}`);
    assert.deepStrictEqual(named(opening.order), [350, ['bk-1', 'bk-2'], ['bk-1', 'bk-2', 'bk-3']], 'a book reads it so too');
    await store.completeResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a' });
    assert.deepStrictEqual(named(await store.getOrderState({ orderKey: 'same' })), [350, ['bk-2'], ['bk-2', 'bk-3']], 'a settled one is counted and no longer open');
  });
}

/** Open bookings for reconcile's checks, the store's clock, and pruning. */
function checkTests(it: It, assert: Assert, { claim, deliver, order }: Tools): void {
  it('open bookings: settled by a delivered final result, claimed for checks by one instance at a time, once per pass', async (store) => {
    await store.insertBooking({ booking: sampleBooking(1, { order_key: 'same' }) });
    await store.insertBooking({ booking: sampleBooking(2, { order_key: 'same' }) });
    await store.insertBooking({ booking: sampleBooking(3) });
    await deliver(store, 'cr-1', 'PENDING');
    assert.strictEqual((await order(store)).open.length, 2, 'PENDING does not settle');
    await deliver(store, 'cr-1', 'CANCELED');
    assert.deepStrictEqual((await order(store)).open, ['bk-2']);

    const checks = (owner: string, notCheckedForMs: number, olderThanMs = 0, leaseMs = HELD_MS) =>
      store.claimOpenBookings({ olderThanMs, notCheckedForMs, limit: 10, owner, leaseMs }).then((list) => list.map((b) => b.booking_id).sort());
    assert.deepStrictEqual(await checks('a', HELD_MS, HELD_MS), [], 'none is a minute old yet');
    assert.deepStrictEqual(await checks('a', HELD_MS), ['bk-2', 'bk-3']);
    assert.deepStrictEqual(await checks('b', 0), [], 'both are held by a');
    assert.deepStrictEqual(await checks('a', HELD_MS), [], 'each booking once per pass');
    await store.releaseCheck({ bookingId: 'bk-2', owner: 'b' });
    assert.deepStrictEqual(await checks('c', 0), [], "another owner's release does nothing");
    await store.releaseCheck({ bookingId: 'bk-2', owner: 'a' });
    assert.deepStrictEqual(await checks('b', 0, 0, ENDED_MS), ['bk-2'], 'released: the next pass may check it');
    await pastEnd();
    assert.deepStrictEqual(await checks('c', 0), ['bk-2'], 'its lease ended: another instance takes over');
  });

  it('bookings settled CANCELED: claimed for a recheck within canceledWithinMs of the cancel, by the same rules, until settled otherwise', async (store) => {
    for (let n = 1; n <= 4; n++) await store.insertBooking({ booking: sampleBooking(n) });
    await deliver(store, 'cr-1', 'CANCELED');
    await deliver(store, 'cr-2', 'FAILED');
    await deliver(store, 'cr-3', 'CANCELED');
    await deliver(store, 'cr-3', 'SUCCESS');
    const rechecks = (owner: string, notCheckedForMs: number, canceledWithinMs = HELD_MS, leaseMs = HELD_MS) =>
      store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs, limit: 10, owner, leaseMs, canceledWithinMs }).then((list) => list.map((b) => b.booking_id));
    assert.deepStrictEqual(await rechecks('a', HELD_MS), ['bk-1'], 'not the failed one, nor the one paid after its cancel, nor the open one');
    assert.deepStrictEqual(await rechecks('b', 0), [], 'held by a');
    assert.deepStrictEqual(await rechecks('a', HELD_MS), [], 'once per pass');
    const open = await store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs: 0, limit: 10, owner: 'c', leaseMs: ENDED_MS });
    assert.deepStrictEqual(open.map((b) => b.booking_id), ['bk-4'], 'a claim of open bookings hands out no cancelled one');
    await store.releaseCheck({ bookingId: 'bk-1', owner: 'a' });
    assert.deepStrictEqual(await rechecks('b', 0, HELD_MS, ENDED_MS), ['bk-1'], 'released: the next pass may recheck it');
    await pastEnd();
    assert.deepStrictEqual(await rechecks('c', 0, 20), [], 'cancelled more than 20 ms ago by the store');
    assert.deepStrictEqual(await rechecks('c', 0, HELD_MS, ENDED_MS), ['bk-1']);
  });

  it('claims at once hand out at most their limit each, and every open booking to exactly one of them', async (store) => {
    for (let n = 1; n <= 4; n++) await store.insertBooking({ booking: sampleBooking(n) });
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs: 0, limit: 1, owner: `o${i}`, leaseMs: HELD_MS })));
    for (const claim of claims) assert.ok(claim.length <= 1, `a claim of one answered ${claim.map((b) => b.booking_id).join(', ')}`);
    assert.deepStrictEqual(claims.flat().map((b) => b.booking_id).sort(), ['bk-1', 'bk-2', 'bk-3', 'bk-4']);
    const rest = await store.claimOpenBookings({ olderThanMs: 0, notCheckedForMs: 0, limit: 10, owner: 'late', leaseMs: HELD_MS });
    assert.deepStrictEqual(rest, [], 'all four are held by the claims that answered them');
  });

  it("a booking's created_at is the store's clock, and a check's age is read by it, whatever the clock of the instance that made it", async (store) => {
    // Made by an instance whose clock runs an hour ahead, and by one an hour behind.
    await store.insertBooking({ booking: sampleBooking(1, { created_at: Date.now() + 3_600_000 }) });
    await store.insertBooking({ booking: sampleBooking(2, { created_at: Date.now() - 3_600_000 }) });
    const [ahead, behind] = [await store.getBookingByKey({ key: 'key-1' }), await store.getBookingByKey({ key: 'key-2' })];
    assert.ok(ahead && behind && Math.abs(ahead.created_at - behind.created_at) < HELD_MS, `both stamped by one clock; got ${ahead?.created_at} and ${behind?.created_at}`);
    const checks = (olderThanMs: number) =>
      store.claimOpenBookings({ olderThanMs, notCheckedForMs: 0, limit: 10, owner: 'a', leaseMs: ENDED_MS }).then((list) => list.map((b) => b.booking_id).sort());
    assert.deepStrictEqual(await checks(HELD_MS), [], 'neither is a minute old by the store');
    assert.deepStrictEqual(await checks(0), ['bk-1', 'bk-2'], 'both are found at once by the store');
  });

  it('prune drops bookings, keys and results made before a time', async (store) => {
    for (const n of [1, 2]) await store.insertBooking({ booking: sampleBooking(n) });
    const before = (await store.getBookingByKey({ key: 'key-2' }))!.created_at + 1;
    await pause(30);
    await store.insertBooking({ booking: sampleBooking(3) });
    await deliver(store, 'cr-1', 'SUCCESS');
    assert.strictEqual(await store.prune({ before }), 2);
    assert.strictEqual(await store.getBookingState({ bookingId: 'bk-1' }), undefined);
    assert.strictEqual(await store.getBookingByKey({ key: 'key-2' }), undefined);
    assert.ok(await store.getBookingState({ bookingId: 'bk-3' }));
    assert.strictEqual(await store.insertBooking({ booking: sampleBooking(1) }), 'saved', 'the key is free again');
    assert.strictEqual(await claim(store, 'cr-1', 'SUCCESS', 'b'), 'claimed', 'its results went with it');
  });
}
