/**
 * Turns the figures into the console table and bench/results.md: every figure beside its goal, with
 * its median and spread, and the machine it was measured on.
 */
import type { ByteRow } from './bytes.js';
import type { BrowserResults, CheckoutResults, PageBytes } from './browser.js';
import { firstPaintRows, type FirstPaintResults } from './first-paint.js';
import { PROVIDER_LABELS } from './merchant.js';
import type { PostgresResults } from './postgres.js';
import { MAX_ROUND_TRIPS, type ProviderRoundTrips } from './round-trips.js';
import type { ProviderServerResults, ServerResults } from './server.js';
import type { BenchedStore, StoreBenchResults } from './stores.js';
import type { Summary } from './stats.js';

/** The machine and the run. */
export interface RunInfo {
  date: string;
  commit: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average when the run started: other work on the machine skews every timing. */
  loadAverage: number;
  node: string;
  chromium: string;
  platform: string;
  quick: boolean;
}

/** Everything one run measured. */
export interface BenchResults {
  info: RunInfo;
  bytes: ByteRow[];
  checkout: CheckoutResults;
  /** The button before its script, three ways (absent from results made before it was measured). */
  firstPaint?: FirstPaintResults;
  browser: BrowserResults;
  server: ServerResults;
  postgres: PostgresResults;
  /** The MySQL and Redis stores, measured as PostgreSQL is (absent from results made before they were). */
  stores?: StoreBenchResults[];
}

export type { GoalRow } from './stats.js';
import type { GoalRow } from './stats.js';

const ms = (value: number) => `${value.toFixed(2)} ms`;
const ratio = (value: number) => `${value.toFixed(2)}x`;
const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
const spreadOf = (s: Summary, format: (value: number) => string) =>
  `IQR ${format(s.q1)} to ${format(s.q3)}; min ${format(s.min)}, max ${format(s.max)}; n=${s.n}`;

function row(measure: string, s: Summary, format: (value: number) => string, goal?: { text: string; met: boolean }): GoalRow {
  return { measure, median: format(s.median), spread: spreadOf(s, format), goal: goal?.text ?? '', verdict: goal ? (goal.met ? 'met' : 'missed') : '' };
}

/**
 * Goals for the checkout page on the slow phone. The render ratio is judged on the median of at least
 * `renderRounds` paired rounds; fewer leave it unjudged (missed).
 */
export const CHECKOUT_GOALS = { renderRatio: 1.1, renderRounds: 21, tapPrefetchedMs: 50, tapColdMs: 400 } as const;

/** The render ratio's figure: its median with the interquartile range beside it. */
export function renderRatioFigure(s: Summary): string {
  return `${ratio(s.median)} (IQR ${ratio(s.q1)} to ${ratio(s.q3)}, ${s.n} paired rounds)`;
}

/** A render ratio's row, judged against the goal of at most 1.10x over enough paired rounds. */
function renderRatioRow(measure: string, s: Summary): GoalRow {
  return {
    ...row(measure, s, ratio, {
      text: `at most ${CHECKOUT_GOALS.renderRatio.toFixed(2)}x, median of at least ${CHECKOUT_GOALS.renderRounds} paired rounds`,
      met: s.n >= CHECKOUT_GOALS.renderRounds && s.median <= CHECKOUT_GOALS.renderRatio,
    }),
    median: renderRatioFigure(s),
  };
}

/** The checkout rows: cold page on the slow phone, with their goals; a render row per number of wallets measured. */
function checkoutRows(checkout: CheckoutResults): GoalRow[] {
  const inEntry = checkout.paymentChunk ? '' : ' (no payment chunk: the payment code is in the entry)';
  const two = checkout.renderRatioTwoWallets;
  const twoMs = checkout.renderMs.elementTwoWallets;
  return [
    renderRatioRow('slow phone, cold: page start to button rendered, element page / minimal Lit button page', checkout.renderRatio),
    ...(two ? [renderRatioRow('  two wallets (wallets="esewa khalti"): element page / minimal Lit button page', two)] : []),
    row('  element page (English), page start to button rendered', checkout.renderMs.element, ms),
    ...(twoMs ? [row('  element page (English, two wallets), page start to wallet buttons rendered', twoMs, ms)] : []),
    row('  minimal Lit button page, page start to button rendered', checkout.renderMs.minimal, ms),
    row('  element page (Nepali), page start to button rendered', checkout.renderMs.elementNe, ms),
    row(`slow phone: tap to navigation minus /book round trip, payment code prefetched${inEntry}`, checkout.tapPrefetchedMs, ms, {
      text: `at most ${CHECKOUT_GOALS.tapPrefetchedMs} ms`,
      met: checkout.tapPrefetchedMs.median <= CHECKOUT_GOALS.tapPrefetchedMs,
    }),
    row(`slow phone: tap to navigation minus /book round trip, payment code fetched on the tap${inEntry}`, checkout.tapColdMs, ms, {
      text: `at most ${CHECKOUT_GOALS.tapColdMs} ms`,
      met: checkout.tapColdMs.median <= CHECKOUT_GOALS.tapColdMs,
    }),
    row('  Nepali page, payment code prefetched', checkout.tapNePrefetchedMs, ms),
    row('  /book round trip on the slow-phone network (subtracted above)', checkout.bookRoundTripMs, ms),
  ];
}

/** Goals for the PostgreSQL store: round trips per booking, added latency, and its rate against the memory store. */
export const POSTGRES_GOALS = { roundTripsPerBooking: 2, addedP50Ms: 3, ratio: 0.8 } as const;

const percent = (value: number) => `${(value * 100).toFixed(0)} %`;

/** The PostgreSQL rows: round trips per booking, added latency on a local server, and the rate against the memory store in the same process. */
function postgresRows(pgr: PostgresResults): GoalRow[] {
  return [
    {
      measure: `database round trips per new booking, PostgreSQL store (queries and connects, counted), intent service, ${pgr.concurrentClients} clients at a time`,
      median: pgr.roundTripsPerBooking.toFixed(3),
      spread: `mean over ${pgr.postgresBookings} bookings; plus ${pgr.renewalsPerBooking.toFixed(4)} lease renewals per booking (books slower than 1 s renew their order lease once a second)`,
      goal: `at most ${POSTGRES_GOALS.roundTripsPerBooking}`,
      verdict: pgr.roundTripsPerBooking <= POSTGRES_GOALS.roundTripsPerBooking ? 'met' : 'missed',
    },
    ...roundTripRows('PostgreSQL store', pgr.providers),
    row('handler added latency over the sandbox, PostgreSQL store (local server), p50', pgr.addedP50Ms, ms, {
      text: `at most ${POSTGRES_GOALS.addedP50Ms} ms`,
      met: pgr.addedP50Ms.median <= POSTGRES_GOALS.addedP50Ms,
    }),
    row('handler added latency over the sandbox, PostgreSQL store (local server), p99', pgr.addedP99Ms, ms),
    row('  booking through the handler, PostgreSQL store, p50', pgr.handlerP50Ms, ms),
    row(`bookings/s, PostgreSQL store / memory store (one process, same rounds, ${pgr.concurrentClients} clients at a time)`, pgr.ratio, percent, {
      text: `at least ${percent(POSTGRES_GOALS.ratio)}`,
      met: pgr.ratio.median >= POSTGRES_GOALS.ratio,
    }),
    row('  PostgreSQL store', pgr.postgresPerSecond, perSecond),
    row('  memory store', pgr.memoryPerSecond, perSecond),
    {
      measure: `  failed bookings of ${pgr.bookingsAttempted}`,
      median: String(pgr.bookingErrors),
      spread: '',
      goal: '0',
      verdict: pgr.bookingErrors === 0 ? 'met' : 'missed',
    },
  ];
}

const STORE_LABELS: Record<BenchedStore, string> = { mysql: 'MySQL store (MariaDB)', redis: 'Redis store (appendfsync always)' };

/** One more store's rows, at PostgreSQL's goals: round trips per booking, added latency, and the rate against the memory store. */
function storeRows(r: StoreBenchResults): GoalRow[] {
  const label = STORE_LABELS[r.store];
  return [
    {
      measure: `database round trips per new booking, ${label} (queries, CALLs or scripts, counted), intent service, ${r.concurrentClients} clients at a time`,
      median: r.roundTripsPerBooking.toFixed(3),
      spread: `mean over ${r.bookings} bookings; plus ${r.renewalsPerBooking.toFixed(4)} lease renewals per booking`,
      goal: `at most ${POSTGRES_GOALS.roundTripsPerBooking}`,
      verdict: r.roundTripsPerBooking <= POSTGRES_GOALS.roundTripsPerBooking ? 'met' : 'missed',
    },
    ...roundTripRows(label, r.providers),
    row(`handler added latency over the sandbox, ${label} (local server), p50`, r.addedP50Ms, ms, {
      text: `at most ${POSTGRES_GOALS.addedP50Ms} ms`,
      met: r.addedP50Ms.median <= POSTGRES_GOALS.addedP50Ms,
    }),
    row(`handler added latency over the sandbox, ${label} (local server), p99`, r.addedP99Ms, ms),
    row(`bookings/s, ${label} / memory store (one process, same rounds, ${r.concurrentClients} clients at a time)`, r.ratio, percent, {
      text: `at least ${percent(POSTGRES_GOALS.ratio)}`,
      met: r.ratio.median >= POSTGRES_GOALS.ratio,
    }),
    row(`  ${label}`, r.storePerSecond, perSecond),
    row('  memory store', r.memoryPerSecond, perSecond),
    {
      measure: `  failed bookings of ${r.bookingsAttempted}`,
      median: String(r.bookingErrors),
      spread: '',
      goal: '0',
      verdict: r.bookingErrors === 0 ? 'met' : 'missed',
    },
  ];
}

/** The summary rows: checkout, render, tap and server figures with their goals. */
export function goalRows(results: BenchResults): GoalRow[] {
  const { render, taps } = results.browser;
  const server = results.server;
  const rows: GoalRow[] = [
    ...checkoutRows(results.checkout),
    ...(results.firstPaint ? firstPaintRows(results.firstPaint) : []),
    row(`render ${render.elements} <wallet-pay-button> / minimal Lit element (information only)`, render.ratioToLit, ratio),
    row(`render ${render.elements} <wallet-pay-button> / plain <button>`, render.ratioToButton, ratio),
    row(`  script only (to updateComplete) / minimal Lit element`, render.scriptRatioToLit, ratio),
    row(`  <wallet-pay-button> x${render.elements}, create to laid out`, render.totalMs['wallet-pay-button'], ms),
    row(`  minimal Lit element x${render.elements}`, render.totalMs['minimal-lit'], ms),
    row(`  plain <button> x${render.elements}`, render.totalMs.button, ms),
  ];
  for (const tap of taps) {
    const label = tap.path === 'phone' ? 'phone (Pixel 7), app path' : 'desktop, web-payment path';
    rows.push(
      row(`warm tap to navigation, the element's own overhead (each sample minus its paired control), ${label} (information only)`, tap.ownOverheadMs, ms),
      row(`  tap to navigation minus /book round trip (with the browser's hold after the input)`, tap.overheadMs, ms),
      row(`  of which: click dispatch to the /book request's start`, tap.beforeRequestMs, ms),
      row(`  of which: /book response end to wallet-pay-navigate`, tap.afterResponseMs, ms),
      row(`    response end to the body reaching script (browser)`, tap.bodyDeliveryMs, ms),
      row(`    body read to wallet-pay-navigate (element's code)`, tap.afterBodyMs, ms),
      row(`  control: same tap, the same /book request by a bare fetch, no element (browser alone)`, tap.bareOverheadMs, ms),
      row(`    of which: response end to the body reaching script`, tap.bareBodyDeliveryMs, ms),
      row(`  click dispatch to wallet-pay-navigate`, tap.tapToNavigateMs, ms),
      row(`  /book round trip (Resource Timing)`, tap.bookRoundTripMs, ms),
      row(`  input delay before the click reaches the page`, tap.inputDelayMs, ms),
    );
  }
  rows.push(
    row('signatures (createSignature)', server.signaturesPerSecond, perSecond),
    ...server.providers.flatMap((p) => providerRows(p, server.concurrentClients)),
    ...postgresRows(results.postgres),
    ...(results.stores ?? []).flatMap(storeRows),
  );
  return rows;
}

/** The goal of a provider's added latency (memory store, p50). */
export const PROVIDER_ADDED_P50_MS = 2;

/** One provider's rows with the memory store: the handler's latency over the provider call, and its rate. */
function providerRows(p: ProviderServerResults, clients: number): GoalRow[] {
  const label = PROVIDER_LABELS[p.provider];
  // ePay v2 books without calling eSewa: its "provider call" is the adapter signing the form in process.
  const direct = p.provider === 'esewa-epay' ? 'the adapter alone (signs the form; a booking calls no provider)' : 'the provider call alone, straight to the sandbox';
  return [
    row(`handler added latency over the provider call, ${label}, memory store, p50`, p.addedP50Ms, ms, {
      text: `under ${PROVIDER_ADDED_P50_MS} ms`,
      met: p.addedP50Ms.median < PROVIDER_ADDED_P50_MS,
    }),
    row(`handler added latency over the provider call, ${label}, memory store, p99`, p.addedP99Ms, ms),
    row(`  ${direct}, p50`, p.directP50Ms, ms),
    row('  booking through the handler, p50', p.handlerP50Ms, ms),
    row(`bookings/s through handler and sandbox, ${label}, ${clients} clients`, p.bookingsPerSecond, perSecond),
    {
      measure: `  failed bookings of ${p.bookingsAttempted}`,
      median: String(p.bookingErrors),
      spread: '',
      goal: '0',
      verdict: p.bookingErrors === 0 ? 'met' : 'missed',
    },
  ];
}

/** A store's round trips per new booking, a row per provider. */
function roundTripRows(store: string, trips: readonly ProviderRoundTrips[]): GoalRow[] {
  return trips.map((t) => ({
    measure: `database round trips per new booking, ${store}, booked through ${PROVIDER_LABELS[t.provider]}`,
    median: t.perBooking.toFixed(3),
    spread: `mean over ${t.bookings} bookings; plus ${t.renewalsPerBooking.toFixed(4)} lease renewals per booking${t.bookingErrors > 0 ? `; ${t.bookingErrors} failed` : ''}`,
    goal: `at most ${MAX_ROUND_TRIPS}`,
    verdict: t.perBooking <= MAX_ROUND_TRIPS && t.bookingErrors === 0 ? 'met' : 'missed',
  }));
}

/**
 * Why the bench must fail on round trips: every store and provider whose new booking cost more than
 * {@link MAX_ROUND_TRIPS} round trips (with what its first booking asked of the store), or whose
 * bookings failed while being counted. Empty when all hold.
 */
export function roundTripFailures(postgres: PostgresResults | undefined, stores: readonly StoreBenchResults[] = []): string[] {
  const checked: Array<[string, number, ProviderRoundTrips[]]> = [];
  if (postgres) checked.push(['PostgreSQL store', postgres.roundTripsPerBooking, postgres.providers]);
  for (const r of stores) checked.push([STORE_LABELS[r.store], r.roundTripsPerBooking, r.providers]);
  const failures: string[] = [];
  for (const [store, underLoad, trips] of checked) {
    if (!(underLoad <= MAX_ROUND_TRIPS)) failures.push(`${store}: ${underLoad.toFixed(3)} round trips per new booking under load, more than ${MAX_ROUND_TRIPS}.`);
    for (const t of trips) {
      const label = `${store} booked through ${PROVIDER_LABELS[t.provider]}`;
      if (!(t.perBooking <= MAX_ROUND_TRIPS)) {
        failures.push(`${label}: ${t.perBooking.toFixed(3)} round trips per new booking, more than ${MAX_ROUND_TRIPS}; the first booking asked: ${t.sample.join('; ') || 'nothing'}.`);
      }
      if (t.bookingErrors > 0) failures.push(`${label}: ${t.bookingErrors} of ${t.bookings + t.bookingErrors} bookings failed while their round trips were counted.`);
    }
  }
  return failures;
}

function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function markdownTable(header: string[], rows: string[][], rightAligned: ReadonlySet<number> = new Set()): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|').replace(/</g, '&lt;');
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (rightAligned.has(i) ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(escape).join(' | ')} |`),
  ].join('\n');
}

const BYTE_HEADER = ['file', 'raw', 'gzip', 'brotli', 'gzip budget'];
function byteCells(rows: ByteRow[]): string[][] {
  return rows.map((r) => [
    r.name,
    String(r.raw),
    String(r.gzip),
    String(r.brotli),
    r.gzipBudget === undefined ? '' : `${r.gzipBudget} ${r.gzip <= r.gzipBudget ? 'met' : 'missed'}`,
  ]);
}

const PAGE_BYTES_HEADER = ['page', 'before the button renders', 'a whole payment', 'of which scripts', 'scripts loaded'];
/** Bytes of the checkout page per language, from Resource Timing (encoded bodies: gzip as served). */
function pageByteCells(checkout: CheckoutResults): string[][] {
  const cells = (lang: string, b: PageBytes) => [lang, `${b.beforeRenderBytes} B`, `${b.wholePaymentBytes} B`, `${b.scriptBytes} B`, b.scripts.join(', ')];
  return [cells('English (en)', checkout.bytes.en), cells('Nepali (ne)', checkout.bytes.ne)];
}

const GOAL_HEADER = ['measure', 'median', 'goal', 'verdict', 'spread'];
const goalCells = (rows: GoalRow[]) => rows.map((r) => [r.measure, r.median, r.goal, r.verdict, r.spread]);

/** The PostgreSQL rows alone, as a console table (`npm run bench -- --postgres`). */
export function postgresReport(postgres: PostgresResults): string {
  return textTable(GOAL_HEADER, goalCells(postgresRows(postgres)));
}

/** The rows of PostgreSQL and the other stores, as a console table (`npm run bench -- --stores`). */
export function storesReport(postgres: PostgresResults, stores: StoreBenchResults[]): string {
  return textTable(GOAL_HEADER, goalCells([...postgresRows(postgres), ...stores.flatMap(storeRows)]));
}

/** The console report. */
export function consoleReport(results: BenchResults): string {
  const budgeted = results.bytes.filter((r) => r.gzipBudget !== undefined);
  return [
    `wallet-pay-button benchmark, ${machineLine(results.info)}`,
    '',
    textTable(GOAL_HEADER, goalCells(goalRows(results))),
    '',
    textTable(PAGE_BYTES_HEADER, pageByteCells(results.checkout)),
    '',
    textTable(BYTE_HEADER, byteCells(budgeted)),
    `(${results.bytes.length - budgeted.length} more shipped files in bench/results.md)`,
  ].join('\n');
}

function machineLine(info: RunInfo): string {
  return `${info.date}, ${info.cpus} CPUs (${info.cpuModel}), load ${info.loadAverage.toFixed(2)}, Node ${info.node}, Chromium ${info.chromium}, ${info.platform}, commit ${info.commit}${info.quick ? ', QUICK run (fewer samples)' : ''}`;
}

/** bench/results.md. */
export function markdownReport(results: BenchResults): string {
  const { info } = results;
  return `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); do not edit by hand. How each figure is measured:
docs/benchmarks.md.

## Machine

| | |
| --- | --- |
| date | ${info.date} |
| commit | ${info.commit} |
| CPUs | ${info.cpus} (${info.cpuModel}) |
| load average (1 min) at start | ${info.loadAverage.toFixed(2)} |
| Node | ${info.node} |
| Chromium | ${info.chromium} (headless) |
| platform | ${info.platform} |
| samples | ${info.quick ? 'quick run (fewer samples)' : 'full run'} |

## Goals and figures

Medians over repeated runs, warm-ups discarded; spread as the interquartile range and min/max.
Checkout: each sample is a cold page load (a fresh browser context) of dist/cdn served gzipped, on the
slow-phone profile (Pixel 7 emulation, ${results.checkout.profile.cpuThrottlingRate}x CPU throttling, ${results.checkout.profile.latencyMs} ms latency,
${results.checkout.profile.downloadBitsPerSecond / 1e6} Mbit/s down); the minimal Lit button page is built by the same CDN config;
each render round loads it, the element's page with one wallet and the same page offering two (\`wallets="esewa khalti"\`,
whose buttons the payment code draws), in an order that rotates.
Render: 1,000 elements of each kind created, first-rendered and laid out in one page session, Lit's
production build minified for both Lit cases. Tap: from the click's dispatch on the page to the
element's \`wallet-pay-navigate\`, minus the \`/book\` round trip from Resource Timing; the control is the
same tap with the same request made by a bare fetch and no element (what the browser alone adds); the
proxy is the real merchant handler in front of the real sandbox on loopback. Server: one Node process on loopback,
a handler per provider (eSewa's intent service, eSewa ePay v2, Khalti) in front of one sandbox that plays all
three; added latency is over the same adapter's booking call made directly (ePay v2's booking calls no
provider: its adapter signs the form in process). Round trips per provider: on each store, the first
booking alone, then ${results.postgres.concurrentClients} clients at a time.
PostgreSQL: a throwaway local PostgreSQL server (fsync off); round trips counted by a counting pool around
the real pg Pool; the rate comparison runs both stores in the benchmark's own process, in the same rounds,
against one shared sandbox. MySQL and Redis: the same measures on a throwaway MariaDB server and a
throwaway Redis server (append-only file fsynced on every write), round trips counted around the real
mysql2 pool and ioredis client.

${markdownTable(GOAL_HEADER, goalCells(goalRows(results)))}

## Bytes a shopper loads (checkout page, slow phone)

Encoded body bytes (gzip as served) of the page, its scripts and the /book request, from Resource
Timing: before the button has rendered, and by the navigation of a whole payment.

${markdownTable(PAGE_BYTES_HEADER, pageByteCells(results.checkout))}

## Bytes of every shipped script

gzip at level 9, brotli at quality 11, measured by scripts/size.mjs.

${markdownTable(BYTE_HEADER, byteCells(results.bytes), new Set([1, 2, 3]))}
`;
}
