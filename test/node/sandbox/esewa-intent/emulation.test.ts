/**
 * The intent service's emulation built on its own, on a sandbox clock: what a state file kept comes
 * back (bookings and sticky scenarios), a status change sends a callback signed with the access key
 * to a real receiver on loopback unless the booking or the `sendCallback` option holds it back, and
 * each hold is logged.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIGNED_FIELDS, verifySignature } from '../../../../src/protocol/signature.js';
import { createHmac } from 'node:crypto';
import { SandboxClock } from '../../../../src/sandbox/clock.js';
import { checkIntentOptions, createIntentEmulation, startIntentEmulation, type IntentEmulationOptions } from '../../../../src/sandbox/esewa-intent/emulation.js';
import { SandboxOptionError } from '../../../../src/sandbox/errors.js';
import { PROFILES } from '../../../../src/sandbox/esewa-intent/profiles.js';
import type { SandboxBooking } from '../../../../src/sandbox/esewa-intent/service.js';
import { startReceiver, type Receiver } from '../support.js';

const NOW = Date.UTC(2026, 0, 1);
const KEY = 'emulation-key';

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(() => receiver.close());

/** A paid booking as a state file keeps it, its callback going to the receiver. */
function paid(id: string, properties: Record<string, string> = {}): SandboxBooking {
  return {
    booking_id: id,
    correlation_id: `C-${id}`,
    product_code: 'P',
    amount: 1250.5,
    transaction_uuid: `T-${id}`,
    callback_url: receiver.url,
    redirect_url: 'https://shop.example/return',
    properties,
    status: 'SUCCESS',
    reference_code: `R-${id}`,
    created_at: NOW,
    updated_at: NOW,
    expires_at: NOW + 15 * 60_000,
    history: [{ status: 'BOOKED', at: NOW, reason: 'booked' }, { status: 'SUCCESS', at: NOW, reason: 'confirmed' }],
  };
}

/** An emulation on a fixed clock, its log lines kept; `extra` overrides its options. */
function emulation(extra: Partial<IntentEmulationOptions> = {}) {
  const lines: string[] = [];
  const clock = new SandboxClock(() => NOW);
  const built = createIntentEmulation({
    accessKey: KEY,
    productCodes: ['P'],
    bookingTtlMs: 15 * 60_000,
    retry: { attempts: 1, baseDelayMs: 0 },
    strict: false,
    profile: PROFILES.spec,
    clock,
    log: (line) => void lines.push(line),
    linksUrl: () => 'http://127.0.0.1:1',
    onChange: () => undefined,
    ...extra,
  });
  return { built, lines, clock };
}

test('what a state file kept comes back, and the snapshot gives it again', () => {
  const { built, clock } = emulation({ saved: { bookings: [paid('BK-1')], sticky: { P: 'WPS-002' } } });
  try {
    assert.equal(built.service.getBooking('BK-1')?.status, 'SUCCESS');
    const snapshot = built.snapshot();
    assert.deepEqual(snapshot.bookings.map((booking) => booking.booking_id), ['BK-1']);
    assert.deepEqual(snapshot.sticky, { P: 'WPS-002' });
  } finally {
    clock.stop();
  }
});

test("a status change sends the booking's callback, signed with the access key over the callback's fields", async () => {
  const { built, lines, clock } = emulation({ saved: { bookings: [paid('BK-2')] } });
  try {
    built.onStatusChange(built.service.getBooking('BK-2')!, true);
    await built.controls.whenCallbacksSettled();
    const got = receiver.received.filter((r) => r.body['correlation_id'] === 'C-BK-2');
    assert.equal(got.length, 1, lines.join('\n'));
    assert.equal(got[0]!.body['status'], 'SUCCESS');
    assert.equal(got[0]!.body['signed_field_names'], SIGNED_FIELDS.callback);
    assert.ok(await verifySignature(got[0]!.body, KEY, SIGNED_FIELDS.callback), 'it verifies with the access key');
    assert.ok(lines.includes('booking BK-2 -> SUCCESS'), lines.join('\n'));
  } finally {
    clock.stop();
    await built.dispatcher.close();
  }
});

test('a callback the booking or the sendCallback option holds back is not sent, and the log says which', async () => {
  const held = emulation({ saved: { bookings: [paid('BK-3'), paid('BK-4', { sandbox_callback: 'never' })] }, sendCallback: (booking) => booking.booking_id !== 'BK-3' });
  try {
    held.built.onStatusChange(held.built.service.getBooking('BK-3')!, true);
    held.built.onStatusChange(held.built.service.getBooking('BK-4')!, true);
    await held.built.controls.whenCallbacksSettled();
    assert.deepEqual(receiver.received.filter((r) => ['C-BK-3', 'C-BK-4'].includes(String(r.body['correlation_id']))), []);
    assert.ok(held.lines.includes('callback BK-3: not sent (held back by the sendCallback option)'), held.lines.join('\n'));
    assert.ok(held.lines.includes('callback BK-4: not sent (properties.sandbox_callback = "never")'), held.lines.join('\n'));
    assert.deepEqual(held.built.dispatcher.attempts(), []);
  } finally {
    held.clock.stop();
    await held.built.dispatcher.close();
  }
});

test("the intent service's options are refused by name before anything starts", () => {
  const refused = (options: Parameters<typeof checkIntentOptions>[0], message: RegExp) =>
    assert.throws(() => checkIntentOptions(options), (error: Error) => error instanceof SandboxOptionError && message.test(error.message), JSON.stringify(options));
  checkIntentOptions({ accessKey: 'k', productCode: ['P', 'Q_1'], bookingTtlMs: 1, callbackRetry: { attempts: 1, baseDelayMs: 0 } });
  refused({ accessKey: '' }, /^accessKey must be a non-empty string\.$/);
  refused({ productCode: [] }, /^productCode lists no product code\.$/);
  refused({ productCode: 'SHOP 1' }, /^productCode must be 1 to 64 letters, digits, "-" or "_"; got "SHOP 1"\.$/);
  refused({ bookingTtlMs: 0 }, /^bookingTtlMs must be a positive number; got 0\.$/);
  refused({ callbackRetry: { attempts: 0, baseDelayMs: 0 } }, /^callbackRetry\.attempts must be an integer of at least 1; got 0\.$/);
  refused({ callbackRetry: { attempts: 1, baseDelayMs: -1 } }, /^callbackRetry\.baseDelayMs must be a number of at least 0; got -1\.$/);
});

test('the handle refuses a revert of an unknown or unpaid booking, and a scenario or product code it does not have', () => {
  const open = { ...paid('BK-5'), status: 'BOOKED' as const };
  const { built, clock } = emulation({ saved: { bookings: [open] } });
  try {
    assert.throws(() => built.controls.revert('BK-none'), (error: Error) => error instanceof SandboxOptionError && error.message === 'No booking "BK-none".');
    assert.throws(() => built.controls.revert('BK-5'), { message: /^Only a SUCCESS booking can be reverted; "BK-5" is BOOKED\.$/ });
    assert.throws(() => built.controls.setScenario('OTHER', 'WPS-001'), { message: /^"OTHER" is not one of this sandbox's product codes\.$/ });
    assert.throws(() => built.controls.setScenario('P', 'WPS-999'), { message: /^No scenario "WPS-999" \(WPS-001 \.\.\.\)\.$/ });
    built.controls.setScenario('P', 'WPS-002');
    assert.deepEqual(built.snapshot().sticky, { P: 'WPS-002' });
  } finally {
    clock.stop();
  }
});


test("built from the sandbox's options, the emulation takes their defaults (15-minute bookings, loose fields) and their sendCallback", async () => {
  const lines: string[] = [];
  const clock = new SandboxClock(() => NOW);
  const shared = { accessKey: 'k', productCodes: ['P'], profile: PROFILES.spec, clock, log: (line: string) => void lines.push(line), linksUrl: () => 'http://127.0.0.1:1', onChange: () => undefined };
  const built = startIntentEmulation({ sendCallback: () => false }, { ...shared, saved: { bookings: [paid('BK-6')] } });
  try {
    const uuid = 'T-defaults';
    const signature = createHmac('sha256', 'k').update(`product_code=P,amount=10,transaction_uuid=${uuid}`).digest('base64');
    const body = { product_code: 'P', amount: 10, transaction_uuid: uuid, signed_field_names: 'product_code,amount,transaction_uuid', signature, callback_url: receiver.url, redirect_url: 'http://127.0.0.1:1/r', properties: {}, unlisted: 1 };
    const result = await built.service.handle('book', JSON.stringify(body));
    assert.equal(result.httpStatus, 200, JSON.stringify(result.body));
    assert.deepEqual(result.ignoredFields, ['unlisted'], 'not strict by default: the unlisted field is ignored');
    const id = (result.body as unknown as { data: { booking_id: string } }).data.booking_id;
    assert.equal(built.service.getBooking(id)?.expires_at, NOW + 15 * 60_000, 'the default lifetime of a booking');
    built.onStatusChange(built.service.getBooking('BK-6')!, true);
    await built.controls.whenCallbacksSettled();
    assert.ok(lines.includes('callback BK-6: not sent (held back by the sendCallback option)'), lines.join('\n'));
    const strict = startIntentEmulation({ strict: true, bookingTtlMs: 60_000 }, shared);
    const refused = await strict.service.handle('book', JSON.stringify({ ...body, transaction_uuid: 'T-strict' }));
    assert.equal(refused.httpStatus, 422, 'strict refuses the unlisted field');
    await strict.dispatcher.close();
  } finally {
    clock.stop();
    await built.dispatcher.close();
  }
});
