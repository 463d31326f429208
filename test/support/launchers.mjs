// web-test-runner launchers for the two engines besides Chromium (Chromium uses Playwright, see
// web-test-runner.config.mjs). Each resolves its executables through scripts/browsers.mjs when it
// first launches, so a run limited to other groups (`--group desktop`) never looks for them.
//
// Firefox: Debian's firefox-esr under puppeteer-core over WebDriver BiDi, through web-test-runner's
//   own puppeteer launcher class (type 'puppeteer': sendKeys and sendMouse work; emulateMedia does not,
//   BiDi has no media-feature override in this Firefox). Puppeteer follows the latest Firefox, not ESR:
//   the one BiDi command an ESR may lack on web-test-runner's path (the screen orientation that
//   setViewport sends) is tolerated, see tolerateMissingScreenOrientation.
// WebKit: WebKitGTK's MiniBrowser driven by WebKitWebDriver over W3C WebDriver (plain HTTP, no client
//   library). Type 'webdriver': sendKeys ('press' and 'type') and sendMouse work through WebDriver
//   actions; emulateMedia and setViewport do not (WebDriver has no way to do them). MiniBrowser needs an
//   X display: without $DISPLAY the launcher starts its own Xvfb.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import * as puppeteer from 'puppeteer-core';
import { ChromeLauncher } from '@web/test-runner-chrome';
import { ensureExecutables } from '../../scripts/browsers.mjs';
import { freePort } from '../../scripts/host.mjs';

const MISSING_SCREEN_ORIENTATION = /^Protocol error \(emulation\.setScreenOrientationOverride\): unknown command\b/;

/**
 * True for exactly the error a Firefox without `emulation.setScreenOrientationOverride` answers
 * (Firefox ESR 140 does; 153 knows the command). Any other error, even another unknown command, is not it.
 */
export function isMissingScreenOrientation(error) {
  return error instanceof puppeteer.ProtocolError && MISSING_SCREEN_ORIENTATION.test(error.message);
}

/**
 * Makes `page.setViewport` work in a Firefox that lacks the screen orientation override: puppeteer
 * sends the viewport and the orientation together and fails the call when the orientation is unknown,
 * though the viewport is all web-test-runner asks for (800x600 before each file). On that one error the
 * viewport is sent again alone and awaited, so the file starts at the size it would have had. A touch
 * viewport is not retried (puppeteer would also have to reload the page): its error propagates.
 */
export function tolerateMissingScreenOrientation(page) {
  const setViewport = page.setViewport.bind(page);
  page.setViewport = async (viewport) => {
    try {
      await setViewport(viewport);
    } catch (error) {
      if (!isMissingScreenOrientation(error) || viewport?.hasTouch) throw error;
      await page.mainFrame().browsingContext.setViewport({
        viewport: viewport?.width && viewport?.height ? { width: viewport.width, height: viewport.height } : null,
        devicePixelRatio: viewport?.deviceScaleFactor || null,
      });
    }
  };
  return page;
}

/** web-test-runner's puppeteer launcher, pointed at Firefox, with the executable resolved at launch. */
class FirefoxLauncher extends ChromeLauncher {
  // One file at a time: keyboard input goes to the focused window. With two windows open, key presses
  // of one file (the hand-off's keyboard walk) went to the other, whose file then hung, and a Tab of
  // one activated nothing (measured: a hang or a failure in about every other run, none with one).
  concurrency = 1;

  constructor() {
    super(
      { browser: 'firefox', headless: true },
      ({ browser }) => browser.defaultBrowserContext(),
      // A window per page: a background tab in Firefox is hidden and its timers are throttled.
      async ({ context }) => tolerateMissingScreenOrientation(await context.newPage({ type: 'window' })),
      puppeteer,
    );
  }

  async launchBrowser(options = {}) {
    this.launchOptions.executablePath ??= (await ensureExecutables(['firefox'])).firefox;
    return super.launchBrowser(options);
  }
}

/** Firefox (desktop) for web-test-runner. */
export function firefoxLauncher() {
  return new FirefoxLauncher();
}

/** Starts Xvfb on a display it picks itself (-displayfd), and returns the process and `:N`. */
async function startXvfb(xvfbPath) {
  const xvfb = spawn(xvfbPath, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  xvfb.stderr.on('data', (chunk) => (stderr += chunk));
  const display = await new Promise((resolve, reject) => {
    let out = '';
    xvfb.stdio[3].on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it reported a display.\n${stderr}`)));
    xvfb.once('error', reject);
  });
  return { xvfb, display };
}

// The W3C WebDriver key codes of the named keys web-test-runner's sendKeys may pass.
const WEBDRIVER_KEYS = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Escape: '\uE00C',
  Space: ' ',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  End: '\uE010',
  Home: '\uE011',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Delete: '\uE017',
  Meta: '\uE03D',
};

/** One key action list: 'a', 'Enter', or a chord such as 'Shift+Tab' (held in order, released in reverse). */
function keyActions(key) {
  const parts = key.length > 1 && key.includes('+') ? key.split('+') : [key];
  const values = parts.map((part) => WEBDRIVER_KEYS[part] ?? part);
  return [
    ...values.map((value) => ({ type: 'keyDown', value })),
    ...values.reverse().map((value) => ({ type: 'keyUp', value })),
  ];
}

const MOUSE_BUTTONS = { left: 0, middle: 1, right: 2 };

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver. One WebDriver session drives one top-level page,
 * so test files run one after another (concurrency 1), each at the top level (not in an iframe:
 * the element behaves differently inside frames).
 */
class WebKitLauncher {
  name = 'WebKit';
  type = 'webdriver';
  concurrency = 1;
  #urls = new Map();
  #starting;
  #base;
  #processes = [];

  initialize() {
    // If the runner exits without stop() (a crash, process.exit), leave no driver or display behind.
    process.once('exit', () => {
      for (const child of this.#processes) if (child.exitCode === null) child.kill();
    });
  }

  async #start() {
    const needs = ['webkitDriver', 'webkitBrowser', ...(process.env.DISPLAY ? [] : ['xvfb'])];
    const found = await ensureExecutables(needs);
    const env = { ...process.env };
    if (!env.DISPLAY) {
      const { xvfb, display } = await startXvfb(found.xvfb);
      this.#processes.push(xvfb);
      env.DISPLAY = display;
    }
    const port = await freePort();
    const driver = spawn(found.webkitDriver, [`--port=${port}`, '--host=127.0.0.1'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.#processes.push(driver);
    let driverLog = '';
    driver.stderr.on('data', (chunk) => (driverLog = (driverLog + chunk).slice(-4000)));
    const root = `http://127.0.0.1:${port}`;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const status = await fetch(`${root}/status`);
        if (status.ok) break;
      } catch {
        // Not listening yet.
      }
      if (driver.exitCode !== null || attempt > 100) {
        throw new Error(`WebKitWebDriver did not start on port ${port}.\n${driverLog}`);
      }
      await sleep(100);
    }
    const { sessionId } = await this.#request(root, 'POST', '/session', {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': { binary: found.webkitBrowser, args: ['--automation'] },
        },
      },
    });
    this.#base = `${root}/session/${sessionId}`;
    await this.#command('POST', '/window/rect', { width: 1024, height: 768 }).catch(() => {});
  }

  async #request(root, method, path, body) {
    const response = await fetch(`${root}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const { value } = await response.json();
    if (!response.ok) {
      throw new Error(`WebDriver ${method} ${path}: ${value?.error ?? response.status}: ${value?.message ?? ''}`);
    }
    return value;
  }

  async #command(method, path, body) {
    if (!this.#base) {
      this.#starting ??= this.#start();
      await this.#starting;
    }
    return this.#request(this.#base, method, path, body ?? (method === 'POST' ? {} : undefined));
  }

  async startSession(sessionId, url) {
    this.#urls.set(sessionId, url);
    await this.#command('POST', '/url', { url });
  }

  isActive(sessionId) {
    return this.#urls.has(sessionId);
  }

  async getBrowserUrl() {
    return this.#command('GET', '/url');
  }

  async stopSession(sessionId) {
    // Leave the test page so its timers and requests stop.
    await this.#command('POST', '/url', { url: 'about:blank' });
    this.#urls.delete(sessionId);
    return {};
  }

  startDebugSession() {
    throw new Error('The WebKit launcher has no debug mode; run the tests in Chromium to debug them.');
  }

  async stop() {
    if (this.#base) {
      await this.#request(this.#base, 'DELETE', '').catch(() => {});
      this.#base = undefined;
    }
    for (const child of this.#processes.reverse()) {
      if (child.exitCode === null) {
        child.kill();
        await once(child, 'exit');
      }
    }
    this.#processes = [];
  }

  // web-test-runner-commands call these for launchers of type 'webdriver'.
  sendKeys(_sessionId, keys) {
    return this.#actions([{ type: 'key', id: 'keyboard', actions: keys.flatMap(keyActions) }]);
  }

  sendMouseMove(_sessionId, x, y) {
    return this.#pointer([{ type: 'pointerMove', duration: 0, x, y }]);
  }

  sendMouseClick(_sessionId, x, y, button = 'left') {
    return this.#pointer([
      { type: 'pointerMove', duration: 0, x, y },
      { type: 'pointerDown', button: MOUSE_BUTTONS[button] },
      { type: 'pointerUp', button: MOUSE_BUTTONS[button] },
    ]);
  }

  sendMouseDown(_sessionId, button = 'left') {
    return this.#pointer([{ type: 'pointerDown', button: MOUSE_BUTTONS[button] }]);
  }

  sendMouseUp(_sessionId, button = 'left') {
    return this.#pointer([{ type: 'pointerUp', button: MOUSE_BUTTONS[button] }]);
  }

  async resetMouse() {
    await this.#command('DELETE', '/actions');
    await this.sendMouseMove(undefined, 0, 0);
  }

  #pointer(actions) {
    return this.#actions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }]);
  }

  async #actions(actions) {
    await this.#command('POST', '/actions', { actions });
  }
}

/** WebKit (desktop) for web-test-runner. */
export function webkitLauncher() {
  return new WebKitLauncher();
}
