/**
 * A restart of the playground's servers between the booking and the shopper's return (desktop path):
 * the merchant kit's PostgreSQL store on PGlite and the sandbox's state file live in one data folder,
 * so new servers on that folder and the same ports finish the journey, and the merchant's result is
 * delivered once across both runs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Browser } from 'playwright';
import {
  bookingIdOnProviderPage,
  cleanConsole,
  confirmOnProviderPage,
  element,
  launchBrowser,
  openCheckout,
  openShopper,
  resultPage,
  startPlayground,
  until,
  type Playground,
} from './support.js';

// Each test has its own data folder and ports.
describe('the playground restarted between booking and return', () => {
  let browser: Browser;
  const dataDirs: string[] = [];
  const running = new Set<Playground>();

  /** An initialised, empty PGlite data folder: initialising one costs seconds of CPU, copying it a fraction. */
  let emptyMerchantDb: string;
  /** A fresh data folder, kept across one test's restart; its merchant database is a copy of the empty one. */
  const newDataDir = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wpb-restart-'));
    dataDirs.push(dataDir);
    await cp(emptyMerchantDb, join(dataDir, 'merchant'), { recursive: true });
    return dataDir;
  };
  const start = async (dataDir: string, port?: number) => {
    const pg = await startPlayground({}, { dataDir, port });
    running.add(pg);
    return pg;
  };
  const stop = async (pg: Playground) => {
    running.delete(pg);
    await pg.close();
  };
  const portOf = (pg: Playground) => Number(new URL(pg.origin).port);
  const deliveriesOf = (runs: Playground[], bookingId: string) =>
    runs.flatMap((pg) => pg.deliveries).filter((result) => result.booking_id === bookingId).map((result) => `${result.status} by ${result.source}`);

  before(async () => {
    const initialise = async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'wpb-restart-'));
      dataDirs.push(dataDir);
      emptyMerchantDb = join(dataDir, 'merchant');
      const db = new PGlite(emptyMerchantDb);
      await db.waitReady;
      await db.close();
    };
    [browser] = await Promise.all([launchBrowser(), initialise()]);
  });
  after(async () => {
    await browser?.close();
    for (const pg of running) await pg.close();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  test('booked, servers stopped and started anew, then paid: the return routes to the success page, one delivery', async () => {
    const dataDir = await newDataDir();
    const first = await start(dataDir);
    const s = await openShopper(browser, 'desktop');
    await openCheckout(s, first.origin);
    await element(s.page).pay.click();
    await s.page.waitForURL(first.sandbox.webPaymentUrl);
    const bookingId = await bookingIdOnProviderPage(s.page);
    const webPaymentUrl = first.sandbox.webPaymentUrl;

    // The shopper is on the provider's page when the servers stop and new ones start on the data folder.
    await stop(first);
    const second = await start(dataDir, portOf(first));
    assert.equal(second.sandbox.webPaymentUrl, webPaymentUrl, 'the sandbox came back on its ports');
    assert.equal(second.sandbox.getBooking(bookingId)?.status, 'BOOKED', 'the sandbox kept the booking');

    await confirmOnProviderPage(s.page, '1234');
    await s.page.waitForURL(/\/success\.html\?/);
    const shown = await resultPage(s.page);
    assert.deepEqual([shown.page, shown.booking, shown.status], ['success', bookingId, 'SUCCESS']);
    await second.sandbox.whenCallbacksSettled();
    assert.deepEqual(deliveriesOf([first, second], bookingId).map((d) => d.split(' ')[0]), ['SUCCESS']);
    assert.deepEqual(cleanConsole(s), []);
    await s.context.close();
    await stop(second);
  });

  test('paid and recorded before the stop, back after the start: the success page shows the record, no second delivery', async () => {
    const dataDir = await newDataDir();
    const first = await start(dataDir);
    const s = await openShopper(browser, 'desktop');
    await openCheckout(s, first.origin);
    await element(s.page).pay.click();
    await s.page.waitForURL(first.sandbox.webPaymentUrl);
    const bookingId = await bookingIdOnProviderPage(s.page);

    // The provider sends the shopper back while the merchant's servers are down: the return is held
    // here (as a browser would fail to load it) and made again once new servers run.
    let held: string | undefined;
    const sandboxOrigin = new URL(first.sandbox.webPaymentUrl).origin;
    await s.page.route(
      (url) => url.origin === sandboxOrigin,
      async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        const location = response.headers()['location'];
        if (response.status() === 303 && location && new URL(location, route.request().url()).origin === first.origin) {
          held = new URL(location, route.request().url()).href;
          await route.abort('connectionrefused');
        } else {
          await route.fulfill({ response });
        }
      },
    );
    await confirmOnProviderPage(s.page, '1234');
    await until(() => held !== undefined, 'the shopper was sent back');
    await first.sandbox.whenCallbacksSettled();
    await until(() => first.records.get(bookingId)?.status === 'SUCCESS', 'the callback was recorded before the stop');

    await stop(first);
    const second = await start(dataDir, portOf(first));
    await s.page.unrouteAll();
    await s.page.goto(held!);
    await s.page.waitForURL(/\/success\.html\?/);
    const shown = await resultPage(s.page);
    assert.deepEqual([shown.page, shown.booking, shown.status], ['success', bookingId, 'SUCCESS']);
    assert.match(shown.verified, /callback/i, 'the record made before the restart');
    assert.deepEqual(deliveriesOf([first, second], bookingId), ['SUCCESS by callback']);
    await s.context.close();
    await stop(second);
  });
});
