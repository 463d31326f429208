/**
 * The element's chunks, loaded again after a failure, in this engine: Chromium and Firefox keep a
 * failed dynamic import in their module map (importing the same URL again fails at once, without a
 * request), WebKit fetches again. The chunks here are modules the scripted proxy serves, dropped,
 * missing or served as each test says.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { ChunkError, chunkLoader } from '../../../src/element/chunk.js';
import { LABELS_EN } from '../../../src/element/i18n/index.js';
import { mount, part, payButton, statusText } from '../../support/element.js';
import { answer, scenario } from '../../support/proxy.js';

const MODULE = { raw: 'export const answer = 42;', type: 'text/javascript' };
/** The modules these tests load have `answer`. */
const hasAnswer = (module: { answer?: unknown }) => module.answer === 42;
const WEB = { url: 'https://pay.wallet.test/checkout/W1', method: 'POST', fields: { token: 'T1' } };

/** A chunk URL on the scripted proxy, answered by `steps`. */
async function chunk(steps: object[]) {
  const s = await scenario({ chunk: steps });
  return { s, url: new URL(`${s.endpoint}/chunk.js`, location.href).href };
}

/** The folder of a chunk on the proxy: a loader imports again only URLs in its chunks' folder. */
const folderOf = (url: string) => new URL('.', url).href;

/** The failure a load ends with (fails the test if it loads). */
async function failureOf(load: () => Promise<unknown>): Promise<ChunkError> {
  try {
    await load();
  } catch (error) {
    expect(error).to.be.instanceOf(ChunkError);
    return error as ChunkError;
  }
  throw new Error('the load was expected to fail');
}

afterEach(() => sessionStorage.clear());

describe('chunkLoader: a chunk that failed to load is loaded again', () => {
  it('a dropped chunk is a network failure; the next call fetches it again and loads it', async () => {
    const { s, url } = await chunk([{ destroy: true }]);
    const load = chunkLoader(() => import(/* @vite-ignore */ url) as Promise<{ answer: number }>, hasAnswer, folderOf(url));
    expect((await failureOf(load)).failure).to.equal('network');
    await s.script({ chunk: [MODULE] });
    const module = await load();
    expect(module.answer).to.equal(42);
    const gets = (await s.received()).chunk!.filter((request) => request.method === 'GET');
    expect(gets.length, 'the second load made a request').to.equal(1);
  });

  it('a chunk answered 404, then served: the next call loads it, also where the engine keeps the failed import', async () => {
    const { s, url } = await chunk([{ status: 404, raw: 'gone' }]);
    const load = chunkLoader(() => import(/* @vite-ignore */ url) as Promise<{ answer: number }>, hasAnswer, folderOf(url));
    expect((await failureOf(load)).failure).to.equal('missing');
    await s.script({ chunk: [MODULE] });
    expect((await load()).answer).to.equal(42);
  });

  it('a missing chunk (404) is the set-up: failure "missing", naming its URL', async () => {
    const { url } = await chunk([{ status: 404, raw: 'gone' }]);
    const load = chunkLoader(() => import(/* @vite-ignore */ url), () => true, folderOf(url));
    const error = await failureOf(load);
    expect(error.failure).to.equal('missing');
    expect(error.url).to.equal(url);
  });

  it('a chunk whose own import failed earlier: loaded by the next call, or, where the engine keeps that failure, "reload"; never a retry that cannot work', async () => {
    const dep = await chunk([{ status: 404, raw: 'gone' }]);
    const { url } = await chunk([{ raw: `export { answer } from ${JSON.stringify(dep.url)}; export const chunk = true;`, type: 'text/javascript' }]);
    // The two files sit in two folders of the proxy: the chunks' folder is the proxy's, as a build's is the chunks' and their imports'.
    const load = chunkLoader(() => import(/* @vite-ignore */ url) as Promise<{ answer: number; chunk?: true }>, (module) => module.chunk === true, new URL('..', folderOf(url)).href);
    // Missing where the engine names the module that failed (Firefox, and WebKit's resource timing),
    // else the chunk itself is there and the failure may be a passing one (Chromium names the chunk).
    expect((await failureOf(load)).failure).to.be.oneOf(['missing', 'network']);
    await dep.s.script({ chunk: [MODULE] });
    // What this engine does with a failed module imported again (Chromium and Firefox keep the failure, WebKit fetches again).
    const keeps = await import(/* @vite-ignore */ dep.url).then(
      () => false,
      () => true,
    );
    if (keeps) expect((await failureOf(load)).failure).to.equal('reload');
    else expect((await load()).answer).to.equal(42);
  });
});

describe('<wallet-pay-button> when its payment chunk fails', () => {
  it('a dropped payment chunk: "Try again" loads it and the payment goes on', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const { el, nav } = await mount(s, { environment: 'desktop' });
    const { s: files, url } = await chunk([{ destroy: true }]);
    const real = import('../../../src/element/payment.js');
    // The chunk stands for the payment module: once served, it hands over the real one.
    const loader = chunkLoader(() => import(/* @vite-ignore */ url), () => true, folderOf(url));
    el.paymentLoader = () => loader().then(() => real);
    payButton(el).click();
    await el.loadsSettled();
    expect(statusText(el)).to.equal(LABELS_EN['error.network']);
    await files.script({ chunk: [MODULE] });
    const navigate = oneEvent(el, 'wallet-pay-navigate');
    part<HTMLButtonElement>(el, 'retry')!.click();
    expect((await navigate).detail.reason).to.equal('web-payment');
    expect(nav.calls.map((call) => call.kind)).to.deep.equal(['postForm']);
  });

  it('a payment chunk that did not come while the device is offline names the shopper\'s connection, with "Try again"', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const { el } = await mount(s, { environment: 'desktop' });
    el.paymentLoader = () => Promise.reject(new ChunkError('network', undefined, 'offline'));
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      payButton(el).click();
      await el.loadsSettled();
      expect(statusText(el)).to.equal(LABELS_EN['error.offline']);
      expect(el.paymentState.error).to.deep.equal({ kind: 'offline' });
      expect(part(el, 'retry')).to.not.equal(null);
    } finally {
      delete (navigator as unknown as Record<string, unknown>).onLine;
    }
  });

  it('a missing payment chunk: a console warning naming the file and the fix, a wallet-pay-error, and no "Try again"', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const { el } = await mount(s, { environment: 'desktop' });
    const { url } = await chunk([{ status: 404, raw: 'gone' }]);
    el.paymentLoader = chunkLoader(() => import(/* @vite-ignore */ url), () => true, folderOf(url));
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      const error = oneEvent(el, 'wallet-pay-error');
      payButton(el).click();
      const { detail } = await error;
      expect(detail.kind).to.equal('config');
      expect(detail.message).to.contain(url).and.contain('Serve the whole folder');
      await el.loadsSettled();
    } finally {
      console.warn = warn;
    }
    expect(warnings.some((line) => line.includes(url) && line.includes('Serve the whole folder')), warnings.join('\n')).to.equal(true);
    expect(statusText(el)).to.equal(LABELS_EN['error.missing']);
    expect(part(el, 'retry')).to.equal(null);
    expect(el.paymentState).to.deep.include({ name: 'error', canRetry: false });
    await expect(el).to.be.accessible();
  });

  it('a chunk only a reload can load: "Reload the page", never a "Try again" that cannot work', async () => {
    const s = await scenario({ book: [answer.bookWeb('W1', WEB)] });
    const { el, nav } = await mount(s, { environment: 'desktop' });
    el.paymentLoader = () => Promise.reject(new ChunkError('reload', 'http://127.0.0.1/payment.js', 'held failed'));
    payButton(el).click();
    await el.loadsSettled();
    expect(statusText(el)).to.equal(LABELS_EN['error.reload']);
    expect(part(el, 'retry')).to.equal(null);
    part<HTMLButtonElement>(el, 'reload')!.click();
    expect(nav.calls).to.deep.equal([{ kind: 'assign', url: location.href }]);
    await expect(el).to.be.accessible();
  });

  it('a failure naming a URL outside its chunks\' folder or origin never makes it import or ask for that URL', async () => {
    const { s, url } = await chunk([{ status: 404, raw: 'gone' }]);
    const elsewhere = ['https://evil.test/payment.js', new URL('/elsewhere/payment.js', url).href, new URL('../payment.js', url).href];
    for (const named of elsewhere) {
      let loads = 0;
      const load = chunkLoader(
        () => {
          loads += 1;
          return loads === 1 ? Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${named}`)) : import(/* @vite-ignore */ url);
        },
        () => true,
        folderOf(url),
      );
      const error = await failureOf(load);
      expect(error.url, named).to.not.equal(named);
      await s.script({ chunk: [MODULE] });
      expect(((await load()) as { answer: number }).answer, named).to.equal(42);
      expect(loads, `${named}: the second call ran the chunk's own import, not the URL the error named`).to.equal(2);
      await s.script({ chunk: [{ status: 404, raw: 'gone' }] });
    }
  });
});
