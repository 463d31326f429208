/**
 * The fault matrix (docs/faults.md lists every row): each fault is injected into the real playground,
 * and each row checks that the shopper gets a clear message and a way forward, that exactly one booking
 * exists per attempt, that no refused URL is ever navigated to, and that the page logs no uncaught error
 * and no console error beyond the request the test made fail.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Request, Route } from 'playwright';
import {
  bookingIdOnProviderPage,
  bookingsOf,
  cleanConsole,
  confirmOnProviderPage,
  element,
  elementEvents,
  openCheckout,
  openShopper,
  payInWalletApp,
  withoutWalletApp,
  resultPage,
  waitForText,
  type ProfileName,
  type Shopper,
  until,
  useSuite,
  returnAddress,
} from './support.js';
import { within } from '../support/within.js';


const suite = useSuite();

/** One row's shopper, with the checks every row ends with. */
interface Row {
  s: Shopper;
  page: Page;
  el: ReturnType<typeof element>;
  /** The tab's checkout: the bookings of its orders are this row's. */
  checkout: string;
  /** Book requests the browser sent, with their Idempotency-Key. */
  bookKeys: string[];
  dialogs: string[];
}

async function openRow(profile: ProfileName, item = 'A-1001', setup?: (s: Shopper) => Promise<void>): Promise<Row> {
  const s = await openShopper(suite.browser, profile);
  await setup?.(s);
  const row: Row = { s, page: s.page, el: element(s.page), checkout: '', bookKeys: [], dialogs: [] };
  s.page.on('request', (request: Request) => {
    if (request.url() === `${suite.pg.origin}/api/pay/book`) row.bookKeys.push(request.headers()['idempotency-key'] ?? '');
  });
  // A `javascript:` deeplink that ran would most likely show itself as a dialog.
  s.page.on('dialog', (dialog) => {
    row.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  row.checkout = await openCheckout(s, suite.pg.origin, item);
  return row;
}

/** The shopper sees `message` in the status region, the button is usable again, and `way` is offered. */
async function assertToldWithWayForward(row: Row, message: string, way = row.el.retry): Promise<void> {
  // The message comes after a round trip to the proxy and the sandbox through the test's route:
  // 10 s was once not enough beside test:built on a loaded machine.
  await waitForText(row.el.status, message, 20_000);
  await way.waitFor();
  assert.equal(await row.el.pay.getAttribute('aria-busy'), 'false');
}

/** Every row ends here: one booking per attempt, no refused URL followed, a clean console. */
async function finish(row: Row, bookings: number): Promise<void> {
  assert.equal(bookingsOf(suite.pg.sandbox, row.checkout).length, bookings, 'bookings in the sandbox');
  const allowed = [suite.pg.origin, suite.pg.sandbox.baseUrl, suite.pg.sandbox.linksUrl];
  for (const url of row.s.visited) {
    assert.ok(allowed.some((origin) => url.startsWith(`${origin}/`)), `navigated to ${url}`);
  }
  assert.deepEqual(row.dialogs, []);
  assert.deepEqual(cleanConsole(row.s), []);
  await row.s.context.close();
}

/** Reaches the provider's page for this profile and returns the booking id it shows. */
async function atProviderPage(row: Row, profile: ProfileName): Promise<string> {
  if (profile === 'desktop') await row.page.waitForURL(suite.pg.sandbox.webPaymentUrl);
  else await row.page.waitForURL(new RegExp(`^${suite.pg.sandbox.linksUrl}/pay/BK-`));
  return bookingIdOnProviderPage(row.page);
}

/** Lets the real proxy book, then replaces its answer: the booking exists, the browser sees the fault. */
function afterBooking(replace: (body: string) => { status: number; contentType: string; body: string }) {
  return async (route: Route) => {
    const response = await route.fetch();
    await route.fulfill({ ...replace(await response.text()), headers: {} });
  };
}

/** Lets the real proxy book, then changes the success answer's `data` before the browser sees it. */
function rewriteBooked(change: (data: Record<string, unknown>) => void) {
  return afterBooking((text) => {
    const answer = JSON.parse(text) as { data: Record<string, unknown> };
    change(answer.data);
    return { status: 200, contentType: 'application/json', body: JSON.stringify(answer) };
  });
}

const BOOK = () => `${suite.pg.origin}/api/pay/book`;

describe('the merchant proxy fails the booking', () => {
  test('proxy down (connection refused): "could not reach", try again books once', async () => {
    const row = await openRow('desktop');
    await row.page.route(BOOK(), (route) => route.abort('connectionrefused'));
    await row.el.pay.click();
    await assertToldWithWayForward(row, 'We could not reach the payment service');
    assert.equal(bookingsOf(suite.pg.sandbox, row.checkout).length, 0);
    await row.page.unrouteAll();
    await row.el.retry.click();
    await atProviderPage(row, 'desktop');
    assert.equal(new Set(row.bookKeys).size, 1, `one Idempotency-Key for the attempt: ${row.bookKeys.join(', ')}`);
    await finish(row, 1);
  });

  for (const { name, status, contentType, body, message, reachesServer } of [
    {
      name: 'HTTP 500 after the service booked',
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'IP-500', error_message: 'Internal error' }),
      message: 'The payment could not be started right now',
      reachesServer: true,
    },
    {
      name: 'HTTP 502 with an HTML body (a gateway in front of the proxy)',
      status: 502,
      contentType: 'text/html',
      body: '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>',
      message: 'The payment could not be started right now',
      reachesServer: false,
    },
    {
      name: 'HTTP 200 with a body that is not JSON',
      status: 200,
      contentType: 'text/plain',
      body: 'OK',
      message: 'The payment service sent an answer we could not read',
      reachesServer: true,
    },
  ]) {
    test(`${name}: a clear message, and try again reuses the attempt (one booking)`, async () => {
      const row = await openRow('desktop');
      await row.page.route(
        BOOK(),
        reachesServer ? afterBooking(() => ({ status, contentType, body })) : (route) => route.fulfill({ status, contentType, body }),
      );
      await row.el.pay.click();
      await assertToldWithWayForward(row, message);
      assert.equal(bookingsOf(suite.pg.sandbox, row.checkout).length, reachesServer ? 1 : 0);
      assert.equal(row.page.url(), `${suite.pg.origin}/`);
      await row.page.unrouteAll();
      await row.el.retry.click();
      const bookingId = await atProviderPage(row, 'desktop');
      if (reachesServer) assert.equal(bookingId, bookingsOf(suite.pg.sandbox, row.checkout)[0]?.booking_id, 'the retry got the first booking back');
      assert.deepEqual(row.bookKeys.length, 2);
      assert.equal(new Set(row.bookKeys).size, 1);
      await finish(row, 1);
    });
  }

  test('a redirect in front of the proxy (a login wall): a clear message, the redirect not followed, try again books once', async () => {
    const row = await openRow('desktop');
    const login = `${suite.pg.origin}/login?next=%2Fapi%2Fpay%2Fbook`;
    const followed: string[] = [];
    row.page.on('request', (request: Request) => {
      if (request.url().startsWith(`${suite.pg.origin}/login`)) followed.push(request.url());
    });
    const error = within(
      row.page.evaluate(
        () => new Promise<{ kind: string; message: string }>((resolve) => document.addEventListener('wallet-pay-error', (event) => resolve(event.detail), { once: true })),
      ),
      15_000,
      'a wallet-pay-error event',
    );
    await row.page.route(BOOK(), (route) => route.fulfill({ status: 302, headers: { location: login }, body: '' }));
    await row.el.pay.click();
    await assertToldWithWayForward(row, 'The shop could not start this payment');
    assert.deepEqual(await error, { kind: 'http', message: 'book: the proxy answered with a redirect (never followed)', http_status: 0 });
    assert.deepEqual(followed, [], 'the login page was never requested');
    assert.equal(row.page.url(), `${suite.pg.origin}/`);
    await row.page.unrouteAll();
    await row.el.retry.click();
    await atProviderPage(row, 'desktop');
    assert.equal(new Set(row.bookKeys).size, 1);
    await finish(row, 1);
  });

  // A press for another order is a new attempt with a new Idempotency-Key; reusing the failed attempt's
  // key would get IP-409 from the merchant kit on every press until a reload.
  test('a failed attempt, then the shopper picks another item and pays: the new order is booked, not stranded', async () => {
    const row = await openRow('desktop');
    await row.page.route(BOOK(), afterBooking(() => ({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'IP-500', error_message: 'Internal error' }) })));
    await row.el.pay.click();
    await assertToldWithWayForward(row, 'The payment could not be started right now');
    await row.page.unrouteAll();
    await row.page.locator('input[name="item"][value="A-1003"]').check();
    const answer = row.page.waitForResponse(BOOK());
    await row.el.pay.click();
    const response = await answer;
    // The body is read only on failure: a 200 is followed by a navigation that discards it.
    if (response.status() !== 200) assert.fail(`the new order's booking was answered ${response.status()} ${await response.text()}`);
    const bookingId = await atProviderPage(row, 'desktop');
    assert.equal(suite.pg.sandbox.getBooking(bookingId)?.properties['order_id'], 'A-1003');
    assert.equal(new Set(row.bookKeys).size, 2, 'a new order is a new attempt with a new Idempotency-Key');
    await finish(row, 2);
  });

  test('a failed attempt, then the path switches (desktop to mobile): the attempt keeps its path and its one booking', async () => {
    const row = await openRow('desktop');
    await row.page.route(BOOK(), afterBooking(() => ({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'IP-500', error_message: 'Internal error' }) })));
    await row.el.pay.click();
    await assertToldWithWayForward(row, 'The payment could not be started right now');
    await row.page.unrouteAll();
    // The playground's switch sets the element's `environment`, as a merchant's page may.
    await row.page.locator('input[name="environment"][value="mobile"]').check();
    await row.el.pay.click();
    // The service already booked this attempt on the web channel: pressing again finishes that one.
    assert.equal(await atProviderPage(row, 'desktop'), bookingsOf(suite.pg.sandbox, row.checkout)[0]?.booking_id);
    assert.equal(new Set(row.bookKeys).size, 1);
    await finish(row, 1);
  });

  test('a 4xx with the spec\'s envelope (the merchant does not know the order): told to contact the shop, nothing booked', async () => {
    const row = await openRow('desktop');
    // A real refusal from the merchant kit: the order id is not in the catalogue. It stays in this
    // tab's checkout, so a booking made for it would count against the row.
    await row.page.evaluate((id) => document.querySelector('wallet-pay-button')!.setAttribute('order-id', id), `NO-SUCH-ORDER/${row.checkout}`);
    const answer = row.page.waitForResponse(BOOK());
    await row.el.pay.click();
    const response = await answer;
    assert.ok(response.status() >= 400 && response.status() < 500, `status ${response.status()}`);
    const envelope = (await response.json()) as Record<string, unknown>;
    assert.match(String(envelope.code), /^IP-\d{3}$/);
    assert.equal(typeof envelope.error_message, 'string');
    await assertToldWithWayForward(row, 'The shop could not start this payment');
    const error = (await elementEvents(row.page)).find((event) => event.type === 'error');
    assert.equal(error?.detail?.code, envelope.code);
    assert.equal(error?.detail?.http_status, response.status());
    await finish(row, 0);
  });

  test('an answer without the deeplink (phone): "incomplete answer", try again opens the wallet page', async () => {
    const row = await openRow('pixel7');
    await row.page.route(
      BOOK(),
      rewriteBooked((data) => {
        delete data.deeplink;
      }),
    );
    await row.el.pay.tap();
    await assertToldWithWayForward(row, 'The payment service sent an incomplete answer');
    await row.page.unrouteAll();
    await row.el.retry.tap();
    await atProviderPage(row, 'pixel7');
    await finish(row, 1);
  });

  for (const [name, deeplink] of [
    ['javascript:', 'javascript:alert(document.domain)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a host that is not allowed', 'https://wallet.attacker.example/pay/BK-1'],
  ] as const) {
    test(`a deeplink with ${name}: refused, not followed, the booking cancelled, no payment made`, async () => {
      const row = await openRow('pixel7');
      await row.page.route(
        BOOK(),
        rewriteBooked((data) => {
          data.deeplink = deeplink;
        }),
      );
      await row.el.pay.tap();
      await assertToldWithWayForward(row, 'The payment address was refused for your safety, so the payment was cancelled. Nothing was charged.');
      assert.equal(row.page.url(), `${suite.pg.origin}/`);
      assert.deepEqual(row.s.visited, [`${suite.pg.origin}/`]);
      const error = (await elementEvents(row.page)).find((event) => event.type === 'error');
      assert.equal(error?.detail?.kind, 'url-refused');
      assert.equal((await elementEvents(row.page)).filter((event) => event.type === 'navigate').length, 0);
      const [booking] = bookingsOf(suite.pg.sandbox, row.checkout);
      // The refused booking does not stay open at the service until it expires.
      await until(() => suite.pg.sandbox.getBooking(booking!.booking_id)?.status === 'CANCELED', 'the refused booking was not cancelled');
      // Once the proxy answers properly again, trying again is a new booking.
      await row.page.unrouteAll();
      await row.el.retry.tap();
      const again = await atProviderPage(row, 'pixel7');
      assert.notEqual(again, booking!.booking_id);
      await finish(row, 2);
    });
  }

  test('a web-payment address with javascript: (desktop): refused, not followed, no payment made', async () => {
    const row = await openRow('desktop');
    await row.page.route(
      BOOK(),
      rewriteBooked((data) => {
        (data.web_payment as { url: string }).url = 'javascript:alert(document.cookie)';
      }),
    );
    await row.el.pay.click();
    await assertToldWithWayForward(row, 'The payment address was refused for your safety, so the payment was cancelled. Nothing was charged.');
    assert.deepEqual(row.s.visited, [`${suite.pg.origin}/`]);
    assert.equal((await elementEvents(row.page)).filter((event) => event.type === 'navigate').length, 0);
    const [booking] = bookingsOf(suite.pg.sandbox, row.checkout);
    await until(() => suite.pg.sandbox.getBooking(booking!.booking_id)?.status === 'CANCELED', 'the refused booking was not cancelled');
    await finish(row, 1);
  });

  test('a booking slower than the element\'s timeout: "took too long", the late booking is the one try again gets', async () => {
    const row = await openRow('pixel7');
    let held: Route | undefined;
    let arrived!: () => void;
    const holding = new Promise<void>((resolve) => (arrived = resolve));
    await row.page.route(BOOK(), (route) => {
      held = route;
      arrived();
    });
    await row.el.pay.tap();
    await within(holding, 15_000, 'the book request to reach the held route');
    await assertToldWithWayForward(row, 'The payment service took too long to answer');
    // The proxy answers after the element gave up: the service has booked by now.
    const late = await held!.fetch();
    assert.equal(late.status(), 200);
    await held!.fulfill({ response: late }).catch(() => undefined);
    assert.equal(bookingsOf(suite.pg.sandbox, row.checkout).length, 1);
    await row.page.unrouteAll();
    await row.el.retry.tap();
    assert.equal(await atProviderPage(row, 'pixel7'), bookingsOf(suite.pg.sandbox, row.checkout)[0]?.booking_id);
    assert.equal(new Set(row.bookKeys).size, 1);
    await finish(row, 1);
  });

  test('the browser offline: "you are offline", nothing sent; back online, try again books once', async () => {
    const row = await openRow('desktop');
    // The connection goes after the page has loaded whole, the payment code included (prefetched when
    // the pointer reaches the button; updateComplete waits for it). Code that never arrived is another
    // fault, with its own message: going offline while it still loaded made this row fail now and then.
    await row.el.pay.hover();
    await within(
      row.el.host.evaluate((el) => (el as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete),
      15_000,
      'the payment code to load (the element\'s updateComplete)',
    );
    await row.s.context.setOffline(true);
    // The page learns of it on its own time: press only once it knows.
    await row.page.waitForFunction(() => !navigator.onLine, undefined, { timeout: 5_000 });
    await row.el.pay.click();
    await assertToldWithWayForward(row, 'You are offline');
    assert.equal(row.bookKeys.length, 0);
    await row.s.context.setOffline(false);
    await row.page.waitForFunction(() => navigator.onLine, undefined, { timeout: 5_000 });
    await row.el.retry.click();
    await atProviderPage(row, 'desktop');
    await finish(row, 1);
  });

  test('three fast clicks: one book request, one booking', async () => {
    const row = await openRow('desktop');
    await row.el.pay.click({ clickCount: 3, delay: 0 });
    await atProviderPage(row, 'desktop');
    assert.equal(row.bookKeys.length, 1);
    await finish(row, 1);
  });

  test('three clicks in one task (a script or an eager double tap): one book request, one booking', async () => {
    const row = await openRow('pixel7');
    await row.page.evaluate(() => {
      const button = document.querySelector('wallet-pay-button')!.shadowRoot!.querySelector('button')!;
      button.click();
      button.click();
      button.click();
    });
    await atProviderPage(row, 'pixel7');
    assert.equal(row.bookKeys.length, 1);
    await finish(row, 1);
  });
});

describe('coming back', () => {
  test('the status endpoint fails while verifying: told, not routed; try again routes to success', async () => {
    const row = await openRow('desktop');
    await row.el.pay.click();
    const bookingId = await atProviderPage(row, 'desktop');
    await row.page.route(`${suite.pg.origin}/api/pay/status`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'IP-500', error_message: 'Service unavailable' }) }),
    );
    await confirmOnProviderPage(row.page, '1234');
    await row.page.waitForURL(returnAddress(suite.pg.origin, `booking_id=${bookingId}&status=SUCCESS`));
    await assertToldWithWayForward(row, 'The payment could not be started right now');
    // The address says SUCCESS, but only the verified status may route the shopper.
    assert.match(row.page.url(), returnAddress(suite.pg.origin, `booking_id=${bookingId}&status=SUCCESS`));
    await row.page.unrouteAll();
    await row.el.retry.click();
    await row.page.waitForURL(/\/success\.html\?/);
    assert.equal((await resultPage(row.page)).status, 'SUCCESS');
    await finish(row, 1);
  });

  test('the tab hidden for six minutes while the app is open: the last check, then check again and the paid result', async () => {
    const row = await openRow('pixel7', 'A-1001', async (s) => {
      await s.page.clock.install();
      // The OS hides the tab when the app takes over; Chromium cannot switch apps, so visibility is emulated.
      // A string, not a function: the test runner's transform would add helpers the page does not have.
      await s.context.addInitScript(`
        let hidden = false;
        Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get() { return hidden ? 'hidden' : 'visible'; } });
        Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get() { return hidden; } });
        window.e2eSetHidden = function (value) {
          hidden = value;
          document.dispatchEvent(new Event('visibilitychange'));
        };
        document.addEventListener('wallet-pay-navigate', function (event) {
          if (event.detail.reason === 'app') window.e2eSetHidden(true);
        });
      `);
      await withoutWalletApp(s.page, suite.pg.sandbox);
    });
    await row.el.pay.tap();
    await row.page.waitForFunction(() => document.visibilityState === 'hidden');
    await row.page.clock.fastForward('06:00');
    // Hidden: the panel for a missing app must not have appeared behind the app.
    assert.equal(await row.el.panel.count(), 0);
    const checked = row.page.waitForResponse(`${suite.pg.origin}/api/pay/status`);
    await row.page.evaluate(() => (window as unknown as { e2eSetHidden(value: boolean): void }).e2eSetHidden(false));
    await checked;
    await assertToldWithWayForward(row, 'We have not received a final answer about your payment yet', row.el.checkAgain);
    assert.ok(await row.el.cancel.isVisible());
    const [booking] = bookingsOf(suite.pg.sandbox, row.checkout);
    await payInWalletApp(row.s.context, suite.pg.sandbox, booking!.booking_id);
    await row.el.checkAgain.tap();
    await row.page.waitForURL(/\/success\.html\?/);
    assert.equal((await resultPage(row.page)).status, 'SUCCESS');
    await finish(row, 1);
  });

  test('a reload in the middle of the flow: the kept booking is checked, its choices stay, paying again books nothing new', async () => {
    const row = await openRow('pixel7', 'A-1001', async (s) => {
      await withoutWalletApp(s.page, suite.pg.sandbox);
    });
    await row.el.pay.tap();
    await row.el.panel.waitFor();
    const [booking] = bookingsOf(suite.pg.sandbox, row.checkout);
    await row.page.reload();
    await waitForText(row.el.status, 'Waiting for the payment to be confirmed');
    assert.equal(await row.el.openApp.getAttribute('href'), `${suite.pg.sandbox.linksUrl}/pay/${booking!.booking_id}`);
    await row.el.pay.tap();
    await waitForText(row.el.status, 'Waiting for the payment to be confirmed');
    assert.equal(row.bookKeys.length, 1);
    await row.el.cancel.tap();
    await row.page.waitForURL(/\/failure\.html\?/);
    const shown = await resultPage(row.page);
    assert.deepEqual([shown.booking, shown.status], [booking!.booking_id, 'CANCELED']);
    assert.equal(suite.pg.sandbox.getBooking(booking!.booking_id)?.status, 'CANCELED');
    await finish(row, 1);
  });

  test('a reload after the booking answer was lost: the next press gets that booking, not a second one', async () => {
    const row = await openRow('desktop');
    // The proxy books, but the answer never reaches the page; the shopper reloads instead of "Try again".
    await row.page.route(BOOK(), async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    });
    await row.el.pay.click();
    await assertToldWithWayForward(row, 'We could not reach the payment service');
    assert.equal(bookingsOf(suite.pg.sandbox, row.checkout).length, 1);
    await row.page.unrouteAll();
    await row.page.reload();
    await row.el.pay.click();
    const bookingId = await atProviderPage(row, 'desktop');
    assert.equal(bookingId, bookingsOf(suite.pg.sandbox, row.checkout)[0]?.booking_id, 'the press after the reload got the first booking');
    assert.equal(row.bookKeys.length, 2);
    assert.equal(new Set(row.bookKeys).size, 1, 'both requests carried the same Idempotency-Key');
    await finish(row, 1);
  });

  for (const choice of ['Cancel payment', 'Pay on the web instead'] as const) {
    test(`"${choice}" after the app already paid: the shopper ends on the success page, charged once`, async () => {
      const row = await openRow('pixel7', 'A-1001', async (s) => {
        await withoutWalletApp(s.page, suite.pg.sandbox);
      });
      await row.el.pay.tap();
      await row.el.panel.waitFor();
      const [booking] = bookingsOf(suite.pg.sandbox, row.checkout);
      // The app did open and paid, but the shopper came back to the panel and chose another way.
      await payInWalletApp(row.s.context, suite.pg.sandbox, booking!.booking_id);
      await (choice === 'Cancel payment' ? row.el.cancel : row.el.payOnWeb).tap();
      await row.page.waitForURL(/\/success\.html\?/);
      const shown = await resultPage(row.page);
      assert.deepEqual([shown.booking, shown.status], [booking!.booking_id, 'SUCCESS']);
      assert.equal(suite.pg.sandbox.getBooking(booking!.booking_id)?.status, 'SUCCESS');
      await finish(row, 1);
    });
  }

  test('a callback never delivered: the status check settles it and the merchant records it', async () => {
    const row = await openRow('desktop', 'A-1003');
    await row.el.pay.click();
    const bookingId = await atProviderPage(row, 'desktop');
    await confirmOnProviderPage(row.page, '1234');
    await row.page.waitForURL(/\/success\.html\?/);
    const shown = await resultPage(row.page);
    assert.deepEqual([shown.status, shown.verified], ['SUCCESS', 'status check with the service']);
    await suite.pg.sandbox.whenCallbacksSettled();
    assert.deepEqual(suite.pg.sandbox.callbackAttempts().filter((attempt) => attempt.booking_id === bookingId), []);
    assert.equal(suite.pg.records.get(bookingId)?.verified_by, 'status-check');
    await finish(row, 1);
  });
});
