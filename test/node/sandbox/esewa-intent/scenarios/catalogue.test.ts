/**
 * The scenario catalogue: stable IDs, the five ways to choose one, and what each one does, played
 * against a real callback receiver on loopback with the sandbox's clock steered.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../../src/sandbox/index.js';
import { SCENARIOS, findScenario, magicAmountOf, scenarioOfAmount } from '../../../../../src/sandbox/esewa-intent/scenarios.js';
import { pollUntil } from '../../../../support/poll.js';
import { book, cancel, control, pay, startReceiver, status, type Receiver } from '../../support.js';

const KEY = 'scenario-key';
const PRODUCT = 'SCN01';

test('the catalogue: IDs WPS-001 onwards, in order, unique, each with a name, a summary and its magic amount', () => {
  SCENARIOS.forEach((scenario, index) => {
    assert.equal(scenario.id, `WPS-${String(index + 1).padStart(3, '0')}`);
    assert.ok(scenario.name && scenario.summary, scenario.id);
    assert.equal(scenarioOfAmount(magicAmountOf(scenario)), scenario);
  });
  assert.equal(new Set(SCENARIOS.map((s) => s.name)).size, SCENARIOS.length);
  // The IDs keep their meaning: a change here is a new ID, never an edit.
  assert.deepEqual(
    SCENARIOS.map((s) => `${s.id} ${s.name}`),
    [
      'WPS-001 paid', 'WPS-002 failed', 'WPS-003 cancelled-in-app', 'WPS-004 pending-then-paid', 'WPS-005 pending-then-failed',
      'WPS-006 paid-after-merchant-cancel', 'WPS-007 callback-lost', 'WPS-008 callback-duplicated', 'WPS-009 callbacks-reordered',
      'WPS-010 callback-late', 'WPS-011 paid-then-reverted', 'WPS-012 expired-unpaid', 'WPS-013 service-slow', 'WPS-014 service-down',
      'WPS-015 callback-dropped-twice', 'WPS-016 pending-forever',
    ],
  );
  assert.equal(findScenario('wps-004')?.name, 'pending-then-paid');
  assert.equal(scenarioOfAmount(9000.5), undefined);
  assert.equal(scenarioOfAmount(100), undefined);
});

describe('scenarios on a running sandbox', () => {
  let sandbox: Sandbox;
  let receiver: Receiver;
  const lines: string[] = [];
  const statuses = () => receiver.received.map((r) => r.body['status']);

  before(async () => {
    receiver = await startReceiver();
    // Retries an hour apart: they happen only when a test moves the clock.
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT, callbackRetry: { attempts: 3, baseDelayMs: 60_000 }, log: (line) => lines.push(line) });
  });
  after(async () => {
    await sandbox.close();
    await receiver.close();
  });

  async function booked(extra: Parameters<typeof book>[1] extends infer T ? Partial<T> : never = {}) {
    receiver.received.length = 0;
    const answer = await book(sandbox.baseUrl, { key: KEY, product: PRODUCT, callbackUrl: receiver.url, ...extra });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data!;
  }

  test('the Wallet-Pay-Scenario header chooses one: WPS-001 pays whatever the MPIN, and the log names it', async () => {
    const data = await booked({ headers: { 'Wallet-Pay-Scenario': 'WPS-001' } });
    assert.equal(sandbox.getBooking(data['booking_id']!)?.scenario, 'WPS-001');
    assert.equal((await pay(sandbox.baseUrl, data['booking_id']!, { mpin: '0000' })).status, 303);
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['SUCCESS']);
    assert.ok(lines.some((line) => line.includes(data['booking_id']!) && line.includes('[WPS-001]')), 'a log line names the scenario');
    assert.equal(sandbox.callbackDeliveries({ booking_id: data['booking_id']! })[0]?.scenario, 'WPS-001');
  });

  test('properties.sandbox_scenario chooses one: WPS-002 fails with its callback', async () => {
    const data = await booked({ properties: { sandbox_scenario: 'WPS-002' } });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['FAILED']);
  });

  test('a magic amount chooses one: 9003 is WPS-003, cancelled in the app', async () => {
    const data = await booked({ amount: 9003 });
    const response = await pay(sandbox.baseUrl, data['booking_id']!);
    assert.match(response.headers.get('location') ?? '', /status=CANCELED/);
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['CANCELED']);
  });

  test('a sticky scenario per product code (POST /sandbox/scenario): WPS-004 is PENDING, then SUCCESS 2 minutes later on the clock', async () => {
    const set = await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: PRODUCT, scenario: 'WPS-004' });
    assert.equal(set.status, 200);
    assert.deepEqual(set.data, { [PRODUCT]: 'WPS-004' });
    const data = await booked();
    await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: PRODUCT, scenario: null });
    assert.equal(sandbox.getBooking(data['booking_id']!)?.scenario, 'WPS-004');
    await pay(sandbox.baseUrl, data['booking_id']!);
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'PENDING');
    await sandbox.clock.advance('119s');
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'PENDING');
    await sandbox.clock.advance('1s');
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'SUCCESS');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['SUCCESS']);
    // Cleared: the next booking has none.
    assert.equal(sandbox.getBooking((await booked())['booking_id']!)?.scenario, undefined);
  });

  test('the picker on the payment page chooses one (and shows the catalogue): WPS-005 is PENDING, then FAILED', async () => {
    const data = await booked();
    const page = await (await fetch(`${sandbox.baseUrl}/web/pay/${data['booking_id']}`)).text();
    for (const scenario of SCENARIOS) assert.ok(page.includes(`value="${scenario.id}"`), `the picker offers ${scenario.id}`);
    await pay(sandbox.baseUrl, data['booking_id']!, { scenario: 'WPS-005' });
    assert.equal(sandbox.getBooking(data['booking_id']!)?.scenario, 'WPS-005');
    await sandbox.clock.advance('2m');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['FAILED']);
  });

  test('an unknown ID is refused where it is given, naming it: header and property IP-422, the picker 422, the sticky control IP-422', async () => {
    const header = await book(sandbox.baseUrl, { key: KEY, product: PRODUCT, headers: { 'Wallet-Pay-Scenario': 'WPS-999' } });
    assert.equal(header.status, 422);
    assert.match(header.body.error_message!, /Header Wallet-Pay-Scenario: no scenario "WPS-999"/);
    const property = await book(sandbox.baseUrl, { key: KEY, product: PRODUCT, properties: { sandbox_scenario: 'paid' } });
    assert.match(property.body.error_message!, /properties.sandbox_scenario: no scenario "paid"/);
    const data = await booked();
    assert.equal((await pay(sandbox.baseUrl, data['booking_id']!, { scenario: 'WPS-000' })).status, 422);
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'BOOKED');
    const sticky = await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: PRODUCT, scenario: 'WPS-77' });
    assert.equal(sticky.status, 422);
  });

  test('WPS-006: the merchant cancels the pending payment (IP-210), and it lands anyway 30 s later with a SUCCESS callback', async () => {
    const data = await booked({ headers: { 'Wallet-Pay-Scenario': 'WPS-006' } });
    await pay(sandbox.baseUrl, data['booking_id']!);
    const cancelled = await cancel(sandbox.baseUrl, KEY, PRODUCT, data['booking_id']!);
    assert.equal(((await cancelled.json()) as { code: string }).code, 'IP-210');
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'CANCELED');
    await sandbox.clock.advance('30s');
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'SUCCESS');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['SUCCESS']);
  });

  test('WPS-007: paid, and no callback ever; the status check says SUCCESS', async () => {
    const data = await booked({ amount: 9007 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await sandbox.clock.advance('1h');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), []);
    const answer = (await (await status(sandbox.baseUrl, KEY, PRODUCT, data['booking_id']!, data['correlation_id']!)).json()) as { data: { status: string } };
    assert.equal(answer.data.status, 'SUCCESS');
  });

  test('WPS-008: the callback is delivered twice', async () => {
    const data = await booked({ amount: 9008 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['SUCCESS', 'SUCCESS']);
    assert.equal(receiver.received[0]!.raw, receiver.received[1]!.raw);
  });

  test('WPS-009: reverted a minute later; the REVERTED callback arrives before the SUCCESS one', async () => {
    const data = await booked({ amount: 9009 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), []);
    await sandbox.clock.advance('1m');
    await pollUntil(() => statuses().length > 0, { what: 'the REVERTED callback' });
    assert.deepEqual(statuses(), ['REVERTED']);
    await sandbox.clock.advance('10s');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['REVERTED', 'SUCCESS']);
  });

  test('WPS-010: the callback arrives 6 minutes later, past the five-minute rule, on the clock', async () => {
    const data = await booked({ amount: 9010 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await sandbox.clock.advance('5m');
    assert.deepEqual(statuses(), []);
    await sandbox.clock.advance('1m');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['SUCCESS']);
  });

  test('WPS-011: paid, then refunded 10 minutes later, each with its callback', async () => {
    const data = await booked({ amount: 9011 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await sandbox.whenCallbacksSettled();
    await sandbox.clock.advance('10m');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['SUCCESS', 'REVERTED']);
  });

  test('WPS-012: the shopper walks away; the booking expires unpaid a minute after booking, without a callback', async () => {
    const data = await booked({ amount: 9012 });
    const response = await pay(sandbox.baseUrl, data['booking_id']!);
    assert.match(response.headers.get('location') ?? '', /status=BOOKED/);
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'BOOKED');
    await sandbox.clock.advance('1m');
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'CANCELED');
    assert.equal((await cancel(sandbox.baseUrl, KEY, PRODUCT, data['booking_id']!)).status, 409);
    assert.deepEqual(statuses(), []);
  });

  test('WPS-013: every answer about the booking is held 3 s (the book included), and the log says so', async () => {
    const started = Date.now();
    const data = await booked({ amount: 9013 });
    assert.ok(Date.now() - started >= 2900, 'the book answer was held');
    assert.ok(lines.some((line) => line.includes(`book ${data['booking_id']} [WPS-013] held 3000 ms`)));
  });

  test('WPS-014: after the confirm the whole API answers a bare 503 for 60 s (this booking and any other); then it answers, and the callback comes', async () => {
    const bystander = await booked();
    const data = await booked({ amount: 9014 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    const down = await status(sandbox.baseUrl, KEY, PRODUCT, data['booking_id']!, data['correlation_id']!);
    assert.equal(down.status, 503);
    assert.equal(await down.text(), 'Service Unavailable');
    assert.equal((await status(sandbox.baseUrl, KEY, PRODUCT, bystander['booking_id']!, bystander['correlation_id']!)).status, 503);
    assert.deepEqual(statuses(), []);
    await sandbox.clock.advance('60s');
    await sandbox.whenCallbacksSettled();
    assert.deepEqual(statuses(), ['SUCCESS']);
    assert.equal((await status(sandbox.baseUrl, KEY, PRODUCT, data['booking_id']!, data['correlation_id']!)).status, 200);
  });

  test('WPS-015: the first two attempts are lost on the network, the third is delivered', async () => {
    const data = await booked({ amount: 9015 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await pollUntil(() => sandbox.callbackAttempts().some((a) => a.booking_id === data['booking_id']), { what: 'the first attempt' });
    await sandbox.clock.advance('3m');
    await sandbox.whenCallbacksSettled();
    const attempts = sandbox.callbackAttempts().filter((a) => a.booking_id === data['booking_id']);
    assert.deepEqual(attempts.map((a) => a.delivered), [false, false, true]);
    assert.match(attempts[0]!.error!, /lost on the network/);
    assert.deepEqual(statuses(), ['SUCCESS']);
  });

  test('WPS-016: PENDING forever, without a callback; the merchant may cancel it', async () => {
    const data = await booked({ amount: 9016 });
    await pay(sandbox.baseUrl, data['booking_id']!);
    await sandbox.clock.advance('1d');
    assert.equal(sandbox.getBooking(data['booking_id']!)?.status, 'PENDING');
    assert.equal((await cancel(sandbox.baseUrl, KEY, PRODUCT, data['booking_id']!)).status, 200);
    assert.deepEqual(statuses(), []);
  });

  test('without a scenario nothing changes: MPIN 0000 fails, another MPIN pays', async () => {
    const failed = await booked();
    await pay(sandbox.baseUrl, failed['booking_id']!, { mpin: '0000' });
    assert.equal(sandbox.getBooking(failed['booking_id']!)?.status, 'FAILED');
    const paid = await booked();
    await pay(sandbox.baseUrl, paid['booking_id']!);
    assert.equal(sandbox.getBooking(paid['booking_id']!)?.status, 'SUCCESS');
  });
});
