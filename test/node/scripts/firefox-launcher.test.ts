/**
 * The Firefox launcher of the browser tests (test/support/launchers.mjs) on a Firefox without
 * `emulation.setScreenOrientationOverride` (an ESR older than the Firefox puppeteer follows): the
 * viewport web-test-runner sets before each file still lands, and every other error still fails.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as puppeteer from 'puppeteer-core';
import type { Browser, Page, Viewport } from 'puppeteer-core';
import {
  firefoxLauncher,
  isMissingScreenOrientation,
  tolerateMissingScreenOrientation,
} from '../../support/launchers.mjs';

// Firefox's own answer to a command it does not know (format measured on Firefox 153 with a made-up
// command): the error code, the command, then the remote stack.
const unknownCommand = (method: string) =>
  new puppeteer.ProtocolError(
    `Protocol error (${method}): unknown command ${method} RemoteError@chrome://remote/content/shared/RemoteError.sys.mjs:8:8\n` +
      'UnknownCommandError@chrome://remote/content/shared/webdriver/Errors.sys.mjs:927:5\n',
  );
const MISSING = 'emulation.setScreenOrientationOverride';

describe('which errors are the missing screen orientation', () => {
  test('the unknown screen orientation command is', () => {
    assert.equal(isMissingScreenOrientation(unknownCommand(MISSING)), true);
  });

  test('another unknown command, another error of that command, or a plain Error are not', () => {
    assert.equal(isMissingScreenOrientation(unknownCommand('browsingContext.setViewport')), false);
    assert.equal(isMissingScreenOrientation(unknownCommand('emulation.setTouchOverride')), false);
    assert.equal(
      isMissingScreenOrientation(new puppeteer.ProtocolError(`Protocol error (${MISSING}): invalid argument natural`)),
      false,
    );
    assert.equal(isMissingScreenOrientation(new Error(`Protocol error (${MISSING}): unknown command ${MISSING}`)), false);
    assert.equal(isMissingScreenOrientation(undefined), false);
  });
});

/** A page whose setViewport fails as given, recording what is sent to the browsing context. */
function pageFailingWith(error: Error) {
  const sent: unknown[] = [];
  const page = {
    setViewport: async (_viewport: Viewport | null) => {
      throw error;
    },
    mainFrame: () => ({ browsingContext: { setViewport: async (options: unknown) => void sent.push(options) } }),
  };
  return { page: tolerateMissingScreenOrientation(page as unknown as Pick<Page, 'setViewport' | 'mainFrame'>), sent };
}

describe('tolerateMissingScreenOrientation', () => {
  test('on the missing orientation, sends the viewport alone and resolves', async () => {
    const { page, sent } = pageFailingWith(unknownCommand(MISSING));
    await page.setViewport({ width: 800, height: 600 });
    assert.deepEqual(sent, [{ viewport: { width: 800, height: 600 }, devicePixelRatio: null }]);
  });

  test('keeps the device pixel ratio asked for', async () => {
    const { page, sent } = pageFailingWith(unknownCommand(MISSING));
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 3 });
    assert.deepEqual(sent, [{ viewport: { width: 390, height: 844 }, devicePixelRatio: 3 }]);
  });

  test('any other error propagates, and nothing is sent again', async () => {
    for (const error of [
      unknownCommand('browsingContext.setViewport'),
      new puppeteer.ProtocolError(`Protocol error (${MISSING}): invalid argument`),
      new Error('Target closed'),
    ]) {
      const { page, sent } = pageFailingWith(error);
      await assert.rejects(page.setViewport({ width: 800, height: 600 }), error);
      assert.deepEqual(sent, [], error.message);
    }
  });

  test('a touch viewport is not retried without its touch emulation: the error propagates', async () => {
    const error = unknownCommand(MISSING);
    const { page, sent } = pageFailingWith(error);
    await assert.rejects(page.setViewport({ width: 390, height: 844, hasTouch: true }), error);
    assert.deepEqual(sent, []);
  });
});

// The launcher web-test-runner uses, on the real Firefox, with the orientation command failing the way
// an ESR without it fails: the session starts and the viewport asked for reaches the page.
describe('the Firefox launcher in Firefox, the orientation command unknown', { timeout: 90_000 }, () => {
  // Internals of web-test-runner's puppeteer launcher that the runner itself calls.
  type Launcher = {
    initialize(config: object, files: string[]): Promise<void>;
    getOrStartBrowser(): Promise<{ browser: Browser }>;
    startSession(id: string, url: string): Promise<void>;
    getPage(id: string): Page;
    stop(): Promise<void>;
  };
  const launcher = firefoxLauncher() as unknown as Launcher;
  let proto: { setScreenOrientationOverride: (...args: unknown[]) => Promise<void> };
  let original: (...args: unknown[]) => Promise<void>;
  let orientationCalls = 0;

  before(async () => {
    await launcher.initialize({}, []);
    const { browser } = await launcher.getOrStartBrowser();
    const probe = await browser.newPage();
    proto = Object.getPrototypeOf((probe.mainFrame() as unknown as { browsingContext: object }).browsingContext);
    await probe.close();
    original = proto.setScreenOrientationOverride;
    proto.setScreenOrientationOverride = async () => {
      orientationCalls += 1;
      throw unknownCommand(MISSING);
    };
  });

  after(async () => {
    if (original) proto.setScreenOrientationOverride = original;
    await launcher.stop();
  });

  test('a test file starts (setViewport, then the page), and a later viewport reaches the page', async () => {
    await launcher.startSession('one', 'data:text/html,<title>one</title>');
    assert.ok(orientationCalls >= 1, 'the failing orientation command was sent');
    const page = launcher.getPage('one');
    assert.equal(await page.title(), 'one');
    assert.deepEqual(await page.evaluate(() => [innerWidth, innerHeight]), [800, 600]);
    await page.setViewport({ width: 640, height: 480 });
    assert.deepEqual(await page.evaluate(() => [innerWidth, innerHeight]), [640, 480]);
  });
});
