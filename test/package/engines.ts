/**
 * The three engines the package tests run a page in, behind one small interface: Chromium through
 * Playwright, Firefox (Debian's firefox-esr) through puppeteer-core over WebDriver BiDi, WebKit
 * (WebKitGTK's MiniBrowser) through WebKitWebDriver over plain W3C WebDriver. A test opens a page and
 * runs async scripts in it; every call has a time limit and fails with a message naming the engine.
 * Executables come from scripts/browsers.mjs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureExecutables } from '../../scripts/browsers.mjs';
import { launchChromium } from '../../scripts/chromium.mjs';
import { freePort } from '../../scripts/host.mjs';

/** The engines, by the name the tests print. */
export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINES)[number];

/** One page in one engine. */
export interface EnginePage {
  readonly engine: EngineName;
  /** Loads `url` in the page. */
  open(url: string): Promise<void>;
  /**
   * Runs `body`, the body of an async function, in the page and returns its JSON result; fails after
   * `limitMs` with `what` in the message.
   */
  run<T>(body: string, what: string, limitMs?: number): Promise<T>;
  close(): Promise<void>;
}

/** Rejects after `ms` with a message naming what was waited for. */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** A running engine: opens pages one after another; `stop()` ends the browser. */
interface Engine {
  page(): Promise<EnginePage>;
  stop(): Promise<void>;
}

/** The engines this process started: one browser per engine and test file, a fresh page per test. */
const started = new Map<EngineName, Promise<Engine>>();

/**
 * Opens one desktop page (1280x800 where the engine can set it) in the engine's browser, started on
 * first use. Each page is new (Chromium: a context of its own; Firefox: a window; WebKit: the one
 * session's window, navigated anew), and each test serves its page from an origin of its own
 * (`startFront`), so no cache or storage carries over. `closeEngines()` in the file's `after`.
 */
export async function openEngine(engine: EngineName): Promise<EnginePage> {
  let running = started.get(engine);
  if (!running) {
    running = engine === 'chromium' ? startChromium() : engine === 'firefox' ? startFirefox() : startWebkit();
    started.set(engine, running);
    running.catch(() => started.delete(engine));
  }
  return (await running).page();
}

/** Stops every browser `openEngine` started in this process. */
export async function closeEngines(): Promise<void> {
  const engines = [...started.values()];
  started.clear();
  for (const engine of await Promise.allSettled(engines)) if (engine.status === 'fulfilled') await engine.value.stop();
}

const wrap = (body: string) => `(async () => { ${body} })()`;

async function startChromium(): Promise<Engine> {
  const browser = await launchChromium();
  return {
    async page() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      return {
        engine: 'chromium',
        open: async (url) => void (await page.goto(url)),
        run: (body, what, limitMs = 20_000) => within(page.evaluate(wrap(body)), limitMs, `chromium: ${what}`),
        close: () => context.close(),
      };
    },
    stop: () => browser.close(),
  };
}

async function startFirefox(): Promise<Engine> {
  const { firefox } = await ensureExecutables(['firefox']);
  const puppeteer = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefox, headless: true });
  return {
    async page() {
      // A window of its own: a background tab is hidden and its timers are throttled.
      const page = await browser.newPage({ type: 'window' });
      return {
        engine: 'firefox',
        open: async (url) => void (await page.goto(url)),
        run: (body, what, limitMs = 20_000) => within(page.evaluate(wrap(body)) as Promise<never>, limitMs, `firefox: ${what}`),
        close: () => page.close(),
      };
    },
    stop: () => browser.close(),
  };
}

async function startWebkit(): Promise<Engine> {
  const found: Partial<Record<'webkitDriver' | 'webkitBrowser' | 'xvfb', string>> = await ensureExecutables(
    process.env.DISPLAY ? (['webkitDriver', 'webkitBrowser'] as const) : (['webkitDriver', 'webkitBrowser', 'xvfb'] as const),
  );
  const children: ChildProcess[] = [];
  const env = { ...process.env };
  const stop = async () => {
    for (const child of children.reverse()) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        await once(child, 'exit');
      }
    }
  };
  try {
    if (!env.DISPLAY) {
      const xvfb = spawn(found.xvfb!, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
      children.push(xvfb);
      env.DISPLAY = await within(
        new Promise<string>((resolve, reject) => {
          let out = '';
          xvfb.stdio[3]!.on('data', (chunk) => {
            out += String(chunk);
            if (out.includes('\n')) resolve(`:${out.trim()}`);
          });
          xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it reported a display`)));
        }),
        10_000,
        'webkit: Xvfb reports its display',
      );
    }
    const port = await freePort();
    children.push(spawn(found.webkitDriver!, [`--port=${port}`, '--host=127.0.0.1'], { env, stdio: 'ignore' }));
    const root = `http://127.0.0.1:${port}`;
    const request = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${root}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const { value } = (await response.json()) as { value: { error?: string; message?: string } & Record<string, unknown> };
      if (!response.ok) throw new Error(`webkit: WebDriver ${method} ${path}: ${value?.error}: ${value?.message}`);
      return value;
    };
    for (let attempt = 0; ; attempt++) {
      if (await fetch(`${root}/status`).then((r) => r.ok, () => false)) break;
      if (attempt > 100) throw new Error(`webkit: WebKitWebDriver did not start on port ${port}`);
      await sleep(100);
    }
    const { sessionId } = (await request('POST', '/session', {
      capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: found.webkitBrowser, args: ['--automation'] } } },
    })) as { sessionId: string };
    const session = `/session/${sessionId}`;
    await request('POST', `${session}/window/rect`, { width: 1280, height: 800 }).catch(() => undefined);
    await request('POST', `${session}/timeouts`, { script: 60_000, pageLoad: 30_000 });
    // One WebDriver session drives one window: its pages follow one another in it.
    const blank = () => within(request('POST', `${session}/url`, { url: 'about:blank' }), 30_000, 'webkit: open about:blank');
    return {
      page: async () => ({
        engine: 'webkit',
        open: async (url) => void (await within(request('POST', `${session}/url`, { url }), 30_000, `webkit: open ${url}`)),
        run: async <T>(body: string, what: string, limitMs = 20_000) => {
          const script = `const done = arguments[arguments.length - 1];
${wrap(body)}.then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));`;
          const result = (await within(request('POST', `${session}/execute/async`, { script, args: [] }), limitMs, `webkit: ${what}`)) as { value?: T; error?: string };
          if (result.error) throw new Error(`webkit: ${what}: ${result.error}`);
          return result.value as T;
        },
        close: async () => void (await blank()),
      }),
      stop: async () => {
        await request('DELETE', session).catch(() => undefined);
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Stands in front of the merchant server (the same files, the same kit) and drops, or answers 404 for,
 * the requests `rule` matches: a network that loses a chunk, or a server that lacks it.
 */
export interface Front {
  origin: string;
  rule: { pattern: RegExp; answer: 'drop' | 404 } | null;
  /** Paths of the requests the rule matched or would have matched, in order. */
  seen: string[];
  close(): Promise<void>;
}

export async function startFront(target: string, watch: RegExp): Promise<Front> {
  const front: Front = { origin: '', rule: null, seen: [], close: async () => undefined };
  const server = createHttpServer((request, response) => {
    const path = request.url ?? '/';
    if (watch.test(path)) front.seen.push(`${request.method} ${path}`);
    if (front.rule?.pattern.test(path)) {
      if (front.rule.answer === 'drop') request.socket.destroy();
      else response.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
      return;
    }
    const upstream = httpRequest(`${target}${path}`, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  front.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  };
  return front;
}

/**
 * In-page, at the start of a `run` body: `wait(check, what, ms)` polls until `check` returns something
 * and fails naming `what` after `ms`; `el` is the page's element, `part(name)` a part of it,
 * `statusText()` its status region's text.
 */
export const WAIT = `const wait = async (check, what, ms = 15000) => {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting: ' + what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
const el = await wait(() => { const e = document.querySelector('wallet-pay-button'); return e && e.shadowRoot && e.shadowRoot.querySelector('[part~="button"]') && e; }, 'the element shows its button');
const part = (name) => el.shadowRoot.querySelector('[part~="' + name + '"]');
const statusText = () => el.shadowRoot.querySelector('[role="status"]').textContent.trim();`;

