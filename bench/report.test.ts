import { test } from 'node:test';
import assert from 'node:assert/strict';
import { consoleReport, goalRows, markdownReport, type BenchResults } from './report.js';
import { summarize } from './stats.js';

const s = (...values: number[]) => summarize(values);

function results(over: { ratio?: number; overhead?: number; added?: number; errors?: number } = {}): BenchResults {
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
  };
}

const verdicts = (r: BenchResults) => goalRows(r).filter((row) => row.goal !== '').map((row) => `${row.measure}: ${row.verdict}`);

test('every goal is met when each figure is within it', () => {
  const rows = verdicts(results());
  assert.equal(rows.length, 5);
  for (const row of rows) assert.match(row, /: met$/);
});

test('each goal is judged on its own median, at its own threshold', () => {
  assert.match(verdicts(results({ ratio: 1.3 }))[0]!, /minimal Lit element: met$/);
  assert.match(verdicts(results({ ratio: 1.31 }))[0]!, /minimal Lit element: missed$/);
  const slowTap = verdicts(results({ overhead: 5 }));
  assert.match(slowTap[1]!, /desktop, web-payment path: missed$/);
  assert.match(slowTap[2]!, /phone \(Pixel 7\), app path: missed$/);
  assert.match(verdicts(results({ added: 2 }))[3]!, /p50: missed$/);
  assert.match(verdicts(results({ errors: 1 }))[4]!, /failed bookings of 1500: missed$/);
});

test('results.md names the machine, prints goals beside figures, and lists every shipped file', () => {
  const md = markdownReport(results({ ratio: 1.5 }));
  assert.match(md, /\| CPUs \| 2 \(Test CPU\) \|/);
  assert.match(md, /\| Node \| v20\.20\.0 \|/);
  assert.match(md, /\| Chromium \| 156\.0 \(headless\) \|/);
  assert.match(md, /\| date \| 2026-01-02T03:04:05\.000Z \|/);
  assert.match(md, /&lt;wallet-pay-button> \/ minimal Lit element \| 1\.50x \| at most 1\.30x \| missed \|/);
  assert.match(md, /\| element's own code \| 20000 \| 5000 \| 4000 \| 4608 missed \|/);
  assert.match(md, /\| dist\/index\.js \| 500 \| 300 \| 250 \| {2}\|/);
});

test('each tap path prints its bare-fetch control beside the element figure', () => {
  const rows = goalRows(results()).filter((row) => row.measure.includes('bare fetch'));
  assert.equal(rows.length, 2);
  for (const row of rows) assert.equal(row.median, '0.80 ms');
});

test("the tap goal is judged on the element's own overhead; the raw figure is printed without a verdict", () => {
  const rows = goalRows(results({ overhead: 4.9 }));
  const own = rows.filter((row) => row.measure.includes("the element's own"));
  assert.equal(own.length, 2);
  for (const row of own) assert.deepEqual([row.median, row.goal, row.verdict], ['4.90 ms', 'under 5 ms', 'met']);
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
