import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BookingError } from '../../../../src/core/booking-client.js';
import { book, newCode, pay, payOnWeb, strategyContext } from '../../../../src/core/flow/attempts.js';
import { begin, setState } from '../../../../src/core/flow/context.js';
import { ALREADY_PROCESSED, IDEMPOTENCY_CONFLICT, ORDER_ALREADY_PAID, type BookResult, type PaymentStatus, type StatusResult } from '../../../../src/protocol/contract.js';
import { flush } from '../../../support/fake-clock.js';
import { answer, contextFixture, hangs, rejects } from './context-fixture.js';

const appBooking = (id = 'B1') => answer<BookResult>({ booking_id: id, correlation_id: `c-${id}`, channel: 'app', deeplink: `https://links.wallet.test/pay/${id}` });
const webBooking = (id = 'W1') => answer<BookResult>({ booking_id: id, correlation_id: `c-${id}`, channel: 'web', web_payment: { url: 'https://pay.wallet.test/form', method: 'POST', fields: { booking: id } } });
const status = (s: PaymentStatus) => answer<StatusResult>({ booking_id: 'B1', correlation_id: 'c-B1', status: s });
const conflict = () => rejects(new BookingError('http', 'key bound to another body', 409, IDEMPOTENCY_CONFLICT));

describe('attempts: pay', () => {
  it("books the attempt on its path's channel with a new key and the funnel's id, and runs its strategy", async () => {
    const t = contextFixture();
    t.scripted.queues.book.push(appBooking());
    pay(t.ctx, t.settings, true);
    assert.equal(t.ctx.state.name, 'booking');
    assert.equal(t.store.attempt(t.settings.storageKey), 'mobile:key-1', 'the attempt is kept before its booking answers');
    await flush();
    assert.deepEqual(t.scripted.calls.book, [{ request: { channel: 'app', order: t.settings.order }, key: 'key-1', attemptId: 'funnel-1' }]);
    assert.deepEqual(t.navigator.calls, [{ kind: 'openApp', url: 'https://links.wallet.test/pay/B1' }]);
    assert.deepEqual(t.types(), ['booked', 'left', 'navigate']);
  });

  it('a booking already kept for the order is checked instead of booking twice', async () => {
    const t = contextFixture();
    t.store.save(t.settings.storageKey, t.kept());
    t.scripted.queues.status.push(hangs());
    pay(t.ctx, t.settings, true);
    assert.equal(t.scripted.calls.status.length, 1);
    assert.deepEqual(t.scripted.calls.book, []);
  });

  it('an order this tab paid shows paid, with its page', () => {
    const t = contextFixture();
    t.store.setPaid(t.settings.storageKey, { booking_id: 'B1', url: 'https://shop.test/done?booking_id=B1' });
    pay(t.ctx, t.settings, true);
    assert.equal(t.ctx.state.name, 'paid');
    assert.equal(t.ctx.state.paidUrl, 'https://shop.test/done?booking_id=B1');
    assert.deepEqual(t.scripted.calls.book, []);
  });

  it('a failed booking is offered again, and "try again" books with the same key', async () => {
    const t = contextFixture();
    t.scripted.queues.book.push(rejects(new BookingError('timeout', 'slow')), appBooking());
    pay(t.ctx, t.settings, true);
    await flush();
    assert.equal(t.ctx.state.error?.kind, 'timeout');
    assert.equal(t.ctx.state.booking, null);
    t.ctx.retry?.();
    await flush();
    assert.deepEqual(t.scripted.calls.book.map((call) => call.key), ['key-1', 'key-1']);
    assert.equal(t.ctx.state.name, 'opening-app');
  });
});

describe('attempts: book', () => {
  it("keeps the wallet and the hand-off in the request, and the booking's funnel", async () => {
    const t = contextFixture({ environment: 'desktop', wallet: 'khalti' });
    t.scripted.queues.book.push(appBooking());
    const booked = await book(t.ctx, begin(t.ctx), { key: 'k1', environment: 'handoff', settings: t.settings }, 'app');
    assert.deepEqual(t.scripted.calls.book[0]?.request, { channel: 'app', order: t.settings.order, wallet: 'khalti', handoff: true });
    assert.equal(booked?.kept.handoff, true);
    assert.equal(booked?.kept.attempt_id, 'funnel-1');
    assert.equal(t.types()[0], 'booked');
  });

  it('a key bound to another body is renewed once, without asking the shopper', async () => {
    const t = contextFixture();
    t.scripted.queues.book.push(conflict(), appBooking());
    const booked = await book(t.ctx, begin(t.ctx), { key: 'k1', environment: 'mobile', settings: t.settings }, 'app');
    assert.deepEqual(t.scripted.calls.book.map((call) => call.key), ['k1', 'key-1']);
    assert.equal(booked?.kept.idempotency_key, 'key-1');
    assert.equal(t.ctx.attempt?.renewed, true);
  });

  it('a second conflict is shown, not renewed again', async () => {
    const t = contextFixture();
    t.scripted.queues.book.push(conflict());
    const booked = await book(t.ctx, begin(t.ctx), { key: 'k1', environment: 'mobile', settings: t.settings }, 'app');
    assert.equal(booked, null);
    assert.equal(t.scripted.calls.book.length, 2);
    assert.equal(t.ctx.state.error?.code, IDEMPOTENCY_CONFLICT);
  });

  it('an order paid already shows paid, remembered, with nothing to retry', async () => {
    const t = contextFixture();
    t.store.setAttempt(t.settings.storageKey, 'mobile:k1');
    t.scripted.queues.book.push(rejects(new BookingError('http', 'paid', 409, ORDER_ALREADY_PAID)));
    const booked = await book(t.ctx, begin(t.ctx), { key: 'k1', environment: 'mobile', settings: t.settings }, 'app');
    assert.equal(booked, null);
    assert.equal(t.ctx.state.name, 'paid');
    assert.equal(t.ctx.state.paidUrl, 'https://shop.test/done');
    assert.deepEqual(t.store.paid(t.settings.storageKey), { booking_id: '', url: 'https://shop.test/done' });
    assert.equal(t.store.attempt(t.settings.storageKey), null);
    assert.equal(t.ctx.attempt, null);
  });

  it('an answer or a failure of a run a newer action overtook is dropped', async () => {
    const t = contextFixture();
    t.scripted.queues.book.push(appBooking());
    const run = begin(t.ctx);
    const answered = book(t.ctx, run, { key: 'k1', environment: 'mobile', settings: t.settings }, 'app');
    begin(t.ctx);
    assert.equal(await answered, null);
    const u = contextFixture();
    u.scripted.queues.book.push(rejects(new BookingError('network', 'down')));
    const failed = book(u.ctx, begin(u.ctx), { key: 'k1', environment: 'mobile', settings: u.settings }, 'app');
    begin(u.ctx);
    assert.equal(await failed, null);
    assert.deepEqual(t.types(), []);
    assert.equal(u.ctx.state.name, 'booking');
  });
});

describe('attempts: strategyContext', () => {
  it("hands each of the strategy's asks to the leg of the same name, in the attempt's run", async () => {
    const t = contextFixture({ environment: 'webview' });
    const context = strategyContext(t.ctx, begin(t.ctx), { key: 'k1', environment: 'webview', settings: t.settings });
    assert.equal(context.handOver(), false, 'no host took it, and the settings allow a booking');
    t.scripted.queues.book.push(webBooking());
    const booked = await context.book('web');
    context.followWebPayment(booked!);
    assert.equal(t.ctx.state.name, 'redirecting');
  });
});

describe('attempts: newCode', () => {
  it('only an expired hand-off gets a new code: a new key, booked anew', async () => {
    const t = contextFixture({ environment: 'desktop' });
    newCode(t.ctx);
    assert.deepEqual(t.scripted.calls.book, []);
    const kept = t.kept({ handoff: true });
    t.store.save(t.settings.storageKey, kept);
    setState(t.ctx, 'handoff-expired', kept);
    t.scripted.queues.book.push(appBooking('B2'));
    newCode(t.ctx);
    await flush();
    assert.deepEqual(t.scripted.calls.book, [{ request: { channel: 'app', order: t.settings.order, handoff: true }, key: 'key-1', attemptId: 'funnel-1' }]);
    assert.equal(t.ctx.state.name, 'handoff');
    assert.equal(t.ctx.state.booking?.booking_id, 'B2');
  });
});

describe('attempts: payOnWeb', () => {
  it('an app booking paid meanwhile finishes as paid, with no new booking', async () => {
    const t = contextFixture({ environment: 'desktop' });
    setState(t.ctx, 'handoff', t.kept({ handoff: true }));
    t.scripted.queues.status.push(status('SUCCESS'));
    payOnWeb(t.ctx);
    assert.equal(t.ctx.state.name, 'verifying');
    await flush();
    assert.equal(t.ctx.state.outcome, 'SUCCESS');
    assert.deepEqual(t.scripted.calls.book, []);
  });

  it('an open app booking is cancelled before a web attempt with a new key', async () => {
    const t = contextFixture({ environment: 'desktop' });
    setState(t.ctx, 'handoff', t.kept({ handoff: true }));
    t.scripted.queues.status.push(status('BOOKED'));
    t.scripted.queues.cancel.push(answer({ booking_id: 'B1', correlation_id: 'c-B1', status: 'CANCELED' as const }));
    t.scripted.queues.book.push(webBooking());
    payOnWeb(t.ctx);
    await flush();
    assert.equal(t.scripted.calls.cancel.length, 1);
    assert.deepEqual(t.scripted.calls.book.map(({ request, key }) => [request.channel, key]), [['web', 'key-1']]);
    assert.equal(t.ctx.state.name, 'redirecting');
  });

  it('a booking already final is not cancelled before the web attempt', async () => {
    const t = contextFixture({ environment: 'desktop' });
    setState(t.ctx, 'handoff', t.kept({ handoff: true }));
    t.scripted.queues.status.push(status('FAILED'));
    t.scripted.queues.book.push(hangs());
    payOnWeb(t.ctx);
    await flush();
    assert.deepEqual(t.scripted.calls.cancel, []);
    assert.equal(t.scripted.calls.book.length, 1);
  });

  it('a cancel refused as processed checks the booking; another failure is shown and "try again" starts over', async () => {
    const t = contextFixture({ environment: 'desktop' });
    const kept = t.kept({ handoff: true });
    setState(t.ctx, 'handoff', kept);
    t.scripted.queues.status.push(status('BOOKED'), hangs());
    t.scripted.queues.cancel.push(rejects(new BookingError('http', 'processed', 409, ALREADY_PROCESSED)));
    payOnWeb(t.ctx);
    await flush();
    assert.equal(t.scripted.calls.status.length, 2, 'checked again');
    assert.deepEqual(t.scripted.calls.book, []);

    const u = contextFixture({ environment: 'desktop' });
    const other = u.kept({ handoff: true });
    setState(u.ctx, 'handoff', other);
    u.scripted.queues.status.push(rejects(new BookingError('network', 'down')), hangs());
    payOnWeb(u.ctx);
    await flush();
    assert.equal(u.ctx.state.error?.kind, 'network');
    assert.equal(u.ctx.state.booking, other);
    u.ctx.retry?.();
    assert.equal(u.ctx.state.name, 'verifying');
    assert.equal(u.scripted.calls.status.length, 2);
  });

  it('does nothing while something runs', () => {
    const t = contextFixture({ environment: 'desktop' });
    setState(t.ctx, 'verifying', t.kept());
    payOnWeb(t.ctx);
    assert.deepEqual(t.scripted.calls.status, []);
  });
});
