/**
 * One route module of the sandbox served alone on loopback: a `(req, res, path) => Promise<boolean>`
 * answers its paths over real HTTP, and a path it declines answers 404 `not mounted`, so a test of
 * that module sees both what it answers and what it leaves to the next routes. `mountForSuite` does it
 * for a whole describe.
 */
import { after, before } from 'node:test';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';

/** A route module's shape: true when it answered the request. */
export type MountedRoutes = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/** A route module on loopback. */
export interface Mounted {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** What the module threw, if anything (answered 500 `threw`). */
  errors: unknown[];
  close(): Promise<void>;
}

/** The status a path the module declined is answered with, and its body. */
export const NOT_MOUNTED = { status: 404, body: 'not mounted' } as const;

/** Serves `routes` on 127.0.0.1 on a free port; the path is the request's, without its query. */
export async function mount(routes: MountedRoutes): Promise<Mounted> {
  const errors: unknown[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://mounted.invalid').pathname;
    routes(req, res, path).then(
      (answered) => {
        if (!answered) res.writeHead(NOT_MOUNTED.status, { 'content-type': 'text/plain' }).end(NOT_MOUNTED.body);
      },
      (error: unknown) => {
        errors.push(error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('threw');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    errors,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Mounts `routes` for the enclosing describe: served before its tests, closed after them, and the suite
 * fails when the module threw. Its `baseUrl` is known once the tests run (a module's own links may
 * name it: they are written when a request comes).
 */
export function mountForSuite(routes: MountedRoutes): { readonly baseUrl: string } {
  let served: Mounted;
  before(async () => {
    served = await mount(routes);
  });
  after(async () => {
    await served?.close();
    assert.deepEqual(served?.errors, [], 'the routes threw');
  });
  return {
    get baseUrl(): string {
      return served.baseUrl;
    },
  };
}
