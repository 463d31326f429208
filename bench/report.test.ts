import { test } from 'node:test';
import assert from 'node:assert/strict';
import { consoleReport, goalRows, markdownReport, type BenchResults } from './report.js';
import { summarize } from './stats.js';

const s = (...values: number[]) => summarize(values);

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
      addedP50Ms: s(over.added ?? 0.5),
      addedP99Ms: s(2),
      directP50Ms: s(1),
      handlerP50Ms: s(1.5),
      bookingsPerSecond: s(900),
      bookingErrors: over.errors ?? 0,
      bookingsAttempted: 1500,
      concurrentClients: 50,
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
    },
  };
}

const verdicts = (r: BenchResults) => goalRows(r).filter((row) => row.goal !== '').map((row) => `${row.measure}: ${row.verdict}`);

test('every goal is met when each figure is within it', () => {
  const rows = verdicts(results());
  assert.equal(rows.length, 9);
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
  const pgRows = (r: BenchResults) => verdicts(r).filter((row) => /PostgreSQL/.test(row));
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
