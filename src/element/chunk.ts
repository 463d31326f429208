/**
 * Loads the element's chunks (the payment code, the Nepali texts, the hand-off) so that a load that
 * failed can be tried again. Chromium and Firefox keep a failed dynamic `import()` in their module
 * map: importing the same URL again fails at once, without a request. A retry therefore imports the
 * chunk's own URL, which those engines name in their error, under a fresh query: a new key in the
 * map, fetched anew. The chunk's own imports are modules the page already runs (the entry, the
 * payment code), so the fresh key is all it needs. WebKit names no URL but fetches again, so there
 * the first import is repeated as it was; the files its failed load asked for are found in the
 * page's resource timing, to tell a missing file from a dropped one.
 */
import type { PageNavigator } from '../core/navigator.js';
import { WalletPayEvent } from './events.js';

/**
 * Why a chunk did not load:
 * - `network`: the request failed (offline, a dropped connection); "Try again" can load it;
 * - `missing`: the server answered that the file is not there (404, 410): the shop's set-up, which no
 *   retry fixes;
 * - `reload`: the file is there, yet importing it again failed (a module it imports failed earlier and
 *   the engine keeps that failure): only a reload of the page loads it.
 */
export type ChunkFailure = 'network' | 'missing' | 'reload';

/** A chunk that did not load, with the reason and, when the engine named it, the chunk's URL. */
export class ChunkError extends Error {
  override readonly name = 'ChunkError';
  constructor(
    readonly failure: ChunkFailure,
    readonly url: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The folder of this module, where the chunks sit (in it or below it: the CDN folder, the npm build's
 * tree, the dev server's `src/element/`); `undefined` in the classic script, which has no URL of its
 * own and no chunks to import again.
 */
function chunksFolder(): string | undefined {
  try {
    return new URL('.', import.meta.url).href;
  } catch {
    return undefined;
  }
}

/**
 * The URL a failed import names (Chromium's "Failed to fetch dynamically imported module: URL",
 * Firefox's "error loading dynamically imported module: URL"), when it is in `folder`, on its
 * origin: an error's text is not trusted to choose what the page imports or asks for.
 */
function urlIn(error: unknown, folder: string | undefined): string | undefined {
  try {
    // Resolved, so `..` cannot climb out of the folder; a string prefix of an href is the origin and the path.
    const url = new URL(/\b((?:https?|file):\/\/\S+)/.exec(String((error as Error | undefined)?.message))![1]!).href;
    return folder && url.startsWith(folder) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The scripts the page asked for since `start` (an engine that names no URL in its error). */
const scriptsSince = (start: number): string[] =>
  performance
    .getEntriesByType('resource')
    .filter((entry) => entry.startTime >= start && (entry as PerformanceResourceTiming).initiatorType === 'script')
    .map((entry) => entry.name)
    .slice(-3);

/**
 * Asks the server whether the chunk (`urls`: the one named, else the scripts its load asked for) is
 * there: a missing file is not worth a retry. Returns the failure and the URL it is about.
 */
async function probe(urls: string[], retried: boolean): Promise<[ChunkFailure, string | undefined]> {
  let failure: ChunkFailure = 'network';
  for (const url of urls) {
    try {
      const { status, ok } = await fetch(url, { method: 'HEAD', cache: 'no-store' });
      if (status === 404 || status === 410) return ['missing', url];
      // There now, yet a fresh import of it failed: what it imports is held failed by the engine.
      if (ok && retried) failure = 'reload';
    } catch {
      // Unreachable: a network failure, which a retry may get past.
    }
  }
  return [failure, urls[0]];
}

/**
 * A loader of one chunk, shared by every element of the page: `load` is the plain `import()` of the
 * chunk (a bundler rewrites it to its own chunk's URL); after a failure the next call imports the URL
 * the failure named, under a fresh `retry` query, when that URL is in `folder` (default: this
 * module's own); otherwise it calls `load` again. `accept` tells the chunk from another module: an
 * engine may name a module the chunk imports instead (Firefox does), and that one is no stand-in.
 * Every failure rejects with a {@link ChunkError}. Each call imports: its caller (a `Load`, load.ts)
 * keeps the load under way.
 */
export function chunkLoader<T>(load: () => Promise<T>, accept: (module: T) => boolean, folder = chunksFolder()): () => Promise<T> {
  let url: string | undefined;
  let failures = 0;
  return () => {
    const start = performance.now();
    return (
      url
        ? (import(/* @vite-ignore */ /* webpackIgnore: true */ `${url}${url.includes('?') ? '&' : '?'}retry=${failures}`) as Promise<T>).then((module) => {
            if (accept(module)) return module;
            // The module named was one the chunk imports: loaded now, but the chunk still holds the failed one.
            throw new ChunkError('reload', url, 'a module the chunk imports failed');
          })
        : load()
    ).catch(async (error: unknown) => {
      if (error instanceof ChunkError) throw error;
      url ??= urlIn(error, folder);
      const [failure, about] = await probe(url ? [url] : scriptsSince(start), failures++ > 0);
      throw new ChunkError(failure, about, String((error as Error | undefined)?.message ?? error));
    });
  };
}

/**
 * A missing chunk is the shop's set-up, not the shopper's network: said in the console, naming the
 * file and the fix, and reported as a `wallet-pay-error` of kind `config`.
 */
export function reportMissing(host: HTMLElement, { url }: ChunkError): void {
  const message = `${url ?? 'A chunk'} is missing (HTTP 404). Serve the whole folder beside the entry file.`;
  console.warn(`<wallet-pay-button>: ${message}`);
  host.dispatchEvent(new WalletPayEvent('error', { kind: 'config', message }));
}

/**
 * A secondary action of the first module (class `action`, the given `part`), drawn without a template
 * engine: the offer to pay on the phone, "Try again", "Reload the page".
 */
export function actionButton(doc: Document, part: string, run: () => void): HTMLButtonElement {
  const button = doc.createElement('button');
  button.setAttribute('part', part);
  button.className = 'action';
  button.type = 'button';
  button.addEventListener('click', run);
  return button;
}

/**
 * A pay button of the first module (the given `part`, class `button`, described by the status region)
 * holding a slot: the default one (the one pay button's label), or a wallet's logo slot.
 */
export function payButton(doc: Document, part: string, run: () => void): HTMLButtonElement {
  const button = actionButton(doc, part, run);
  button.className = 'button';
  button.setAttribute('aria-describedby', 'status');
  button.append(doc.createElement('slot'));
  return button;
}

/** Sets a node's text when it differs (no mutation, no announcement, for the same words). */
export function text(node: Node, value: string): void {
  if (node.textContent !== value) node.textContent = value;
}

/**
 * Reloads the page ("Reload the page", for a chunk only a reload can load again), through the element's
 * `navigation` when a host routes itself.
 */
export function reload(host: { ownerDocument: Document; navigation?: PageNavigator | null | undefined }): void {
  const location = host.ownerDocument.defaultView!.location;
  if (host.navigation) host.navigation.assign(location.href);
  else location.reload();
}
