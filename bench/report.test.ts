import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BENCH_PROVIDERS, type BenchProvider } from './merchant.js';
import { consoleReport, goalRows, markdownReport, roundTripFailures, storesReport, type BenchResults } from './report.js';
import type { ProviderRoundTrips } from './round-trips.js';
import type { ProviderServerResults } from './server.js';
import type { StoreBenchResults } from './stores.js';
import { summarize } from './stats.js';

const s = (...values: number[]) => summarize(values);

function serverRow(provider: BenchProvider, added = 0.5, errors = 0): ProviderServerResults {
  return {
    provider,
    addedP50Ms: s(added),
    addedP99Ms: s(2),
    directP50Ms: s(1),
    handlerP50Ms: s(1.5),
    bookingsPerSecond: s(900),
    bookingErrors: errors,
    bookingsAttempted: 1500,
  };
}

/** Round trips of each provider on one store: `perBooking` for all, or per provider. */
function trips(perBooking: number | Partial<Record<BenchProvider, number>> = 2, errors = 0): ProviderRoundTrips[] {
  return BENCH_PROVIDERS.map((provider) => ({
    provider,
    perBooking: typeof perBooking === 'number' ? perBooking : (perBooking[provider] ?? 2),
    renewalsPerBooking: 0,
    bookings: 41,
    bookingErrors: errors,
    sample: ['SELECT wallet_pay_book($1)', 'UPDATE wallet_pay_bookings'],
  }));
}

function storeResults(store: 'mysql' | 'redis', perBooking: number | Partial<Record<BenchProvider, number>> = 2): StoreBenchResults {
  return {
    store,
    roundTripsPerBooking: 2,
    renewalsPerBooking: 0,
    bookings: 1000,
    addedP50Ms: s(1.5),
    addedP99Ms: s(4),
    handlerP50Ms: s(2.5),
    concurrentClients: 8,
    storePerSecond: s(600),
    memoryPerSecond: s(700),
    ratio: s(0.86),
    bookingErrors: 0,
    bookingsAttempted: 2000,
    providers: trips(perBooking),
  };
}

function results(over: { renderRounds?: number; ratio?: number; overhead?: number; added?: number; errors?: number; pageRatio?: number; prefetched?: number; cold?: number; pgAdded?: number; pgRatio?: number; pgTrips?: number } = {}): BenchResults {
  const tap = (path: 'desktop' | 'phone') => ({
    path,
    reason: path === 'phone' ? 'app' : 'web-payment',
    overheadMs: s(over.overhead ?? 2),
    tapToNavigateMs: s(12),
    inputDelayMs: s(1),
    bookRoundTripMs: s(10),
    beforeRequestMs: s(1),
    afterResponseMs: s(1),
    bodyDeliveryMs: s(0.5),
    afterBodyMs: s(0.5),
    bareOverheadMs: s(0.8),
    bareBodyDeliveryMs: s(0.4),
    ownOverheadMs: s(over.overhead ?? 1.2),
  });
  return {
    info: {
      date: '2026-01-02T03:04:05.000Z',
      commit: 'abc1234',
      cpus: 2,
      cpuModel: 'Test CPU',
      loadAverage: 0.5,
      node: 'v20.20.0',
      chromium: '156.0',
      platform: 'linux 6',
      quick: false,
    },
    bytes: [
      { name: 'dist/cdn/wallet-pay-button.min.js', raw: 30000, gzip: 9000, brotli: 8000, gzipBudget: 10240 },
      { name: "element's own code", raw: 20000, gzip: 5000, brotli: 4000, gzipBudget: 4608 },
      { name: 'dist/index.js', raw: 500, gzip: 300, brotli: 250 },
    ],
    checkout: {
      profile: { cpuThrottlingRate: 4, latencyMs: 150, downloadBitsPerSecond: 1_600_000, uploadBitsPerSecond: 750_000 },
      paymentChunk: true,
      renderMs: { element: s(660), minimal: s(616), elementNe: s(700) },
      renderRatio: summarize(Array.from({ length: over.renderRounds ?? 21 }, () => over.pageRatio ?? 1.07)),
      tapPrefetchedMs: s(over.prefetched ?? 45),
      tapColdMs: s(over.cold ?? 345),
      tapNePrefetchedMs: s(46),
      bookRoundTripMs: s(320),
      bytes: {
        en: { beforeRenderBytes: 8000, wholePaymentBytes: 15100, scriptBytes: 14300, scripts: ['/cdn/wallet-pay-button.min.js', '/cdn/payment-A.min.js'] },
        ne: { beforeRenderBytes: 8000, wholePaymentBytes: 16100, scriptBytes: 15300, scripts: ['/cdn/wallet-pay-button.min.js', '/cdn/ne-B.min.js', '/cdn/payment-A.min.js'] },
      },
    },
    browser: {
      chromiumVersion: '156.0',
      render: {
        elements: 1000,
        totalMs: { 'wallet-pay-button': s(30), 'minimal-lit': s(25), button: s(5) },
        scriptMs: { 'wallet-pay-button': s(20), 'minimal-lit': s(15), button: s(1) },
        ratioToLit: s(over.ratio ?? 1.2),
        ratioToButton: s(6),
        scriptRatioToLit: s(1.3),
      },
      taps: [tap('desktop'), tap('phone')],
    },
    server: {
      signaturesPerSecond: s(20000),
      concurrentClients: 50,
      providers: [serverRow('esewa-intent', over.added, over.errors), serverRow('esewa-epay'), serverRow('khalti')],
    },
    postgres: {
      addedP50Ms: s(over.pgAdded ?? 1.2),
      addedP99Ms: s(6),
      directP50Ms: s(1),
      handlerP50Ms: s(2.2),
      roundTripsPerBooking: over.pgTrips ?? 2,
      postgresBookings: 1500,
      renewalsPerBooking: 0,
      concurrentClients: 8,
      postgresPerSecond: s(700),
      memoryPerSecond: s(900),
      ratio: s(over.pgRatio ?? 0.85),
      bookingErrors: 0,
      bookingsAttempted: 3000,
      providers: trips(),
    },
  };
}

const verdicts = (r: BenchResults) => goalRows(r).filter((row) => row.goal !== '').map((row) => `${row.measure}: ${row.verdict}`);

test('every goal is met when each figure is within it', () => {
  const rows = verdicts(results());
  // Checkout 3; per provider added p50 and failed bookings 6; PostgreSQL 4 and a round-trip row per provider 3.
  assert.equal(rows.length, 16);
  for (const row of rows) assert.match(row, /: met$/);
});

test('each goal is judged on its own median, at its own threshold', () => {
  assert.match(verdicts(results({ pageRatio: 1.1 }))[0]!, /minimal Lit button page: met$/);
  assert.match(verdicts(results({ pageRatio: 1.11 }))[0]!, /minimal Lit button page: missed$/);
  assert.match(verdicts(results({ prefetched: 50 }))[1]!, /prefetched: met$/);
  assert.match(verdicts(results({ prefetched: 50.1 }))[1]!, /prefetched: missed$/);
  assert.match(verdicts(results({ cold: 401 }))[2]!, /fetched on the tap: missed$/);
  assert.match(verdicts(results({ added: 2 }))[3]!, /p50: missed$/);
  assert.match(verdicts(results({ errors: 1 }))[4]!, /failed bookings of 1500: missed$/);
});

test('the render ratio is the median of at least 21 paired rounds, printed with its interquartile range beside it', () => {
  const ratioRow = (r: BenchResults) => goalRows(r).find((row) => row.measure.includes('page start to button rendered, element page / minimal'))!;
  const r = results();
  r.checkout.renderRatio = summarize([1.0, 1.05, 1.08, 1.1, 1.12, 1.14, 1.16, 1.18, 1.2, 1.22, 1.24, 1.3, 1.05, 1.08, 1.1, 1.12, 1.14, 1.16, 1.18, 1.2, 1.4]);
  const row = ratioRow(r);
  assert.equal(row.median, '1.14x (IQR 1.10x to 1.20x, 21 paired rounds)');
  assert.equal(row.verdict, 'missed');
  assert.match(row.goal, /at most 1\.10x, median of at least 21 paired rounds/);
  assert.equal(ratioRow(results({ pageRatio: 1.09 })).verdict, 'met');
  // A median within the goal, but of 20 rounds: not judged met.
  assert.equal(ratioRow(results({ pageRatio: 1.09, renderRounds: 20 })).verdict, 'missed');
});

test('the PostgreSQL goals: at most 2 round trips per booking, added p50 at most 3 ms, at least 80 % of the memory store', () => {
  const pgRows = (r: BenchResults) => verdicts(r).filter((row) => /PostgreSQL/.test(row) && !/booked through/.test(row));
  assert.deepEqual(pgRows(results({ pgTrips: 2, pgAdded: 3, pgRatio: 0.8 })).map((row) => row.split(': ').at(-1)), ['met', 'met', 'met']);
  assert.deepEqual(pgRows(results({ pgTrips: 2.01, pgAdded: 3.01, pgRatio: 0.79 })).map((row) => row.split(': ').at(-1)), ['missed', 'missed', 'missed']);
  assert.match(goalRows(results()).find((row) => /PostgreSQL store \/ memory store/.test(row.measure))!.median, /^85 %$/);
});

test('the 1,000-element render and the warm tap are information only', () => {
  const rows = goalRows(results({ ratio: 3, overhead: 20 })).filter((row) => row.measure.includes('information only'));
  assert.equal(rows.length, 3);
  for (const row of rows) assert.deepEqual([row.goal, row.verdict], ['', '']);
});

test('without a payment chunk the tap rows say the payment code is in the entry', () => {
  const r = results();
  r.checkout.paymentChunk = false;
  assert.equal(goalRows(r).filter((row) => row.measure.includes('no payment chunk')).length, 2);
});

test('results.md names the machine, prints goals beside figures, and lists every shipped file', () => {
  const md = markdownReport(results({ ratio: 1.5 }));
  assert.match(md, /\| CPUs \| 2 \(Test CPU\) \|/);
  assert.match(md, /\| Node \| v20\.20\.0 \|/);
  assert.match(md, /\| Chromium \| 156\.0 \(headless\) \|/);
  assert.match(md, /\| date \| 2026-01-02T03:04:05\.000Z \|/);
  assert.match(md, /&lt;wallet-pay-button> \/ minimal Lit element \(information only\) \| 1\.50x \| {2}\| {2}\|/);
  assert.match(md, /\| Nepali \(ne\) \| 8000 B \| 16100 B \| 15300 B \| \/cdn\/wallet-pay-button\.min\.js, \/cdn\/ne-B\.min\.js, \/cdn\/payment-A\.min\.js \|/);
  assert.match(md, /\| element's own code \| 20000 \| 5000 \| 4000 \| 4608 missed \|/);
  assert.match(md, /\| dist\/index\.js \| 500 \| 300 \| 250 \| {2}\|/);
});

test('each tap path prints its bare-fetch control beside the element figure', () => {
  const rows = goalRows(results()).filter((row) => row.measure.includes('bare fetch'));
  assert.equal(rows.length, 2);
  for (const row of rows) assert.equal(row.median, '0.80 ms');
});

test("the warm tap prints the element's own overhead and the raw figure, neither with a verdict", () => {
  const rows = goalRows(results({ overhead: 4.9 }));
  const own = rows.filter((row) => row.measure.includes("the element's own"));
  assert.equal(own.length, 2);
  for (const row of own) assert.deepEqual([row.median, row.goal, row.verdict], ['4.90 ms', '', '']);
  const raw = rows.filter((row) => row.measure.includes("with the browser's hold"));
  assert.equal(raw.length, 2);
  for (const row of raw) assert.deepEqual([row.goal, row.verdict], ['', '']);
});

test('the console report shows the budgeted files and counts the others', () => {
  const text = consoleReport(results());
  assert.match(text, /dist\/cdn\/wallet-pay-button\.min\.js\s+30000\s+9000\s+8000\s+10240 met/);
  assert.match(text, /\(1 more shipped files in bench\/results\.md\)/);
  assert.doesNotMatch(text, /dist\/index\.js/);
});

test('the server prints a row per provider: added latency over its call (p50 with a goal, p99), the call alone, bookings per second', () => {
  const rows = goalRows(results());
  for (const label of ["eSewa's intent service", 'eSewa ePay v2', 'Khalti']) {
    const p50 = rows.find((row) => row.measure === `handler added latency over the provider call, ${label}, memory store, p50`);
    assert.ok(p50, `${label}: an added p50 row`);
    assert.deepEqual([p50.median, p50.goal, p50.verdict], ['0.50 ms', 'under 2 ms', 'met']);
    assert.match(p50.spread, /^IQR 0\.50 ms to 0\.50 ms; min 0\.50 ms, max 0\.50 ms; n=1$/);
    const p99 = rows.find((row) => row.measure === `handler added latency over the provider call, ${label}, memory store, p99`);
    assert.equal(p99?.median, '2.00 ms', `${label}: a p99 row`);
    const rate = rows.find((row) => row.measure === `bookings/s through handler and sandbox, ${label}, 50 clients`);
    assert.equal(rate?.median, '900/s', `${label}: a rate row`);
  }
  // ePay v2's booking calls no provider: its direct figure says what it is.
  assert.equal(rows.filter((row) => /the adapter alone \(signs the form; a booking calls no provider\), p50/.test(row.measure)).length, 1);
  assert.equal(rows.filter((row) => /the provider call alone, straight to the sandbox, p50/.test(row.measure)).length, 2);
  const epay = results();
  epay.server.providers[1] = serverRow('esewa-epay', 2);
  const missed = goalRows(epay).filter((row) => row.verdict === 'missed').map((row) => row.measure);
  assert.deepEqual(missed, ['handler added latency over the provider call, eSewa ePay v2, memory store, p50']);
});

test('round trips per new booking: a row per provider on every store, at most 2 each', () => {
  const r = results();
  r.stores = [storeResults('mysql'), storeResults('redis', { khalti: 3 })];
  const rows = goalRows(r).filter((row) => / booked through /.test(row.measure));
  assert.equal(rows.length, 9);
  for (const store of ['PostgreSQL store', 'MySQL store (MariaDB)', 'Redis store (appendfsync always)']) {
    for (const provider of ["eSewa's intent service", 'eSewa ePay v2', 'Khalti']) {
      const row = rows.find((x) => x.measure === `database round trips per new booking, ${store}, booked through ${provider}`);
      assert.ok(row, `${store} with ${provider}`);
      assert.equal(row.goal, 'at most 2');
      assert.match(row.spread, /^mean over 41 bookings; plus 0\.0000 lease renewals per booking$/);
    }
  }
  assert.deepEqual(rows.filter((row) => row.verdict === 'missed').map((row) => row.median), ['3.000']);
  // The --stores table carries the same rows.
  assert.equal(storesReport(r.postgres, r.stores).match(/ booked through /g)?.length, 9);
  assert.match(markdownReport(r), /\| database round trips per new booking, Redis store \(appendfsync always\), booked through Khalti \| 3\.000 \| at most 2 \| missed \|/);
});

test('round-trip failures name the store, the provider, the figure and what the first booking asked; none when all hold', () => {
  const r = results();
  assert.deepEqual(roundTripFailures(r.postgres, [storeResults('mysql'), storeResults('redis')]), []);
  r.postgres.providers = trips({ 'esewa-epay': 2.5 });
  const failures = roundTripFailures(r.postgres, [storeResults('mysql', { khalti: 2.001 })]);
  assert.deepEqual(failures, [
    'PostgreSQL store booked through eSewa ePay v2: 2.500 round trips per new booking, more than 2; the first booking asked: SELECT wallet_pay_book($1); UPDATE wallet_pay_bookings.',
    'MySQL store (MariaDB) booked through Khalti: 2.001 round trips per new booking, more than 2; the first booking asked: SELECT wallet_pay_book($1); UPDATE wallet_pay_bookings.',
  ]);
});

test('round-trip failures also name bookings that failed while counted, a figure that is not a number, and the store under load', () => {
  const r = results();
  r.postgres.providers = trips(2, 3);
  r.postgres.roundTripsPerBooking = 2.2;
  const failures = roundTripFailures(r.postgres);
  assert.equal(failures[0], 'PostgreSQL store: 2.200 round trips per new booking under load, more than 2.');
  assert.equal(failures.filter((f) => /: 3 of 44 bookings failed while their round trips were counted\.$/.test(f)).length, 3);
  assert.equal(goalRows(r).filter((row) => / booked through /.test(row.measure) && row.verdict === 'missed').length, 3);
  r.postgres.providers = trips(Number.NaN);
  r.postgres.roundTripsPerBooking = 2;
  assert.equal(roundTripFailures(r.postgres).length, 3);
});

test('with two wallets measured, a render row per wallet count, each judged at 1.10x over 21 paired rounds', () => {
  const r = results();
  assert.equal(goalRows(r).filter((row) => /two wallets/.test(row.measure)).length, 0, 'results without the two-wallet rounds print as before');
  r.checkout.renderRatioTwoWallets = summarize(Array.from({ length: 21 }, () => 1.2));
  r.checkout.renderMs.elementTwoWallets = s(950);
  const rows = goalRows(r);
  const one = rows.findIndex((row) => row.measure.includes('page start to button rendered, element page / minimal'));
  const two = rows[one + 1]!;
  assert.match(two.measure, /two wallets \(wallets="esewa khalti"\): element page \/ minimal Lit button page/);
  assert.equal(two.median, '1.20x (IQR 1.20x to 1.20x, 21 paired rounds)');
  assert.equal(two.verdict, 'missed');
  assert.equal(rows[one]!.verdict, 'met', "one wallet's row is judged on its own ratio");
  assert.ok(rows.some((row) => /two wallets\), page start to wallet buttons rendered/.test(row.measure) && row.median === '950.00 ms'));
  r.checkout.renderRatioTwoWallets = summarize(Array.from({ length: 21 }, () => 1.1));
  assert.equal(goalRows(r)[one + 1]!.verdict, 'met');
  assert.match(markdownReport(r), /\| +two wallets \(wallets="esewa khalti"\): element page \/ minimal Lit button page \| 1\.10x/);
});
