/**
 * The sandbox's HTTP layer: the answer helpers and the JSON body reader mounted alone on loopback,
 * then the service and links handlers with provider routes of the test's own: the providers asked in
 * turn, what no route answers, and the log line of every request. The intent service's routes are
 * esewa-intent/routes.test.ts's; fault-header.test.ts holds the faults.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CODES, HTTP_STATUS_OF_CODE } from '../../../src/protocol/contract.js';
import { createLinksHandler, createServiceHandler, MAX_BODY_BYTES, readJsonRequest, sendFailure, sendJson, sendPage, type HttpContext, type ProviderRoutes } from '../../../src/sandbox/http.js';
import { mount, type Mounted } from '../../support/mounted.js';

describe('the answer helpers and the JSON reader, mounted alone', () => {
  let served: Mounted;
  before(async () => {
    served = await mount(async (req, res, path) => {
      if (path === '/json') sendJson(res, 201, { a: 1 }, { 'x-extra': 'yes' });
      else if (path === '/failure') sendFailure(res, CODES.UNKNOWN_BOOKING, 'No such.', { allow: 'POST' });
      else if (path === '/page') sendPage(res, 418, '<p>teapot</p>', { 'cache-control': 'max-age=5' });
      else if (path === '/read') {
        const raw = await readJsonRequest(req, res);
        if (raw !== undefined) sendJson(res, 200, { raw });
      } else return false;
      return true;
    });
  });
  after(() => served.close());

  // Bytes, not a string, when no type is given: fetch would call a string text/plain.
  const post = (body: string, type?: string) =>
    fetch(`${served.baseUrl}/read`, { method: 'POST', ...(type === undefined ? { body: new TextEncoder().encode(body) } : { body, headers: { 'content-type': type } }) });

  test('sendJson: the status, no-store, nosniff and the extra headers; sendFailure: the code’s status and shape', async () => {
    const json = await fetch(`${served.baseUrl}/json`);
    assert.equal(json.status, 201);
    assert.equal(json.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(json.headers.get('cache-control'), 'no-store');
    assert.equal(json.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(json.headers.get('x-extra'), 'yes');
    assert.deepEqual(await json.json(), { a: 1 });
    const failure = await fetch(`${served.baseUrl}/failure`);
    assert.equal(failure.status, HTTP_STATUS_OF_CODE[CODES.UNKNOWN_BOOKING]);
    assert.equal(failure.headers.get('allow'), 'POST');
    assert.deepEqual(await failure.json(), { code: CODES.UNKNOWN_BOOKING, error_message: 'No such.' });
  });

  test('sendPage: HTML under a CSP that loads nothing and is framed nowhere; its headers can be added to', async () => {
    const page = await fetch(`${served.baseUrl}/page`);
    assert.equal(page.status, 418);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(page.headers.get('content-security-policy')!, /default-src 'none'.*frame-ancestors 'none'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('cache-control'), 'max-age=5');
    assert.equal(await page.text(), '<p>teapot</p>');
  });

  test('readJsonRequest: JSON in UTF-8 (any case, quoted charset) is read; other types and charsets are IP-415', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=UTF-8', 'application/json; charset="utf-8"']) {
      const read = await post('{"x":1}', type);
      assert.deepEqual(await read.json(), { raw: '{"x":1}' }, type);
    }
    for (const type of ['text/plain', 'application/json; charset=latin1', undefined]) {
      const refused = await post('{"x":1}', type);
      assert.equal(refused.status, HTTP_STATUS_OF_CODE[CODES.UNSUPPORTED_MEDIA_TYPE], String(type));
      assert.equal(((await refused.json()) as { code: string }).code, CODES.UNSUPPORTED_MEDIA_TYPE);
    }
  });

  test(`readJsonRequest: a body of ${MAX_BODY_BYTES} bytes is read; one byte more is IP-413, answered, not reset`, async () => {
    const exact = `"${'x'.repeat(MAX_BODY_BYTES - 2)}"`;
    assert.equal(((await (await post(exact, 'application/json')).json()) as { raw: string }).raw.length, MAX_BODY_BYTES);
    const over = await post(`${exact} `, 'application/json');
    assert.equal(over.status, HTTP_STATUS_OF_CODE[CODES.PAYLOAD_TOO_LARGE]);
    assert.match(((await over.json()) as { error_message: string }).error_message, new RegExp(`larger than ${MAX_BODY_BYTES} bytes`));
  });
});

describe('the service and links handlers, with provider routes of their own', () => {
  const lines: string[] = [];
  const asked: string[] = [];
  /** Routes that answer `path` alone with their name, and note each path they are asked. */
  const answering = (name: string, own: string): ProviderRoutes => async (_req, res, path) => {
    asked.push(`${name} ${path}`);
    if (path !== own) return false;
    sendJson(res, 200, { by: name });
    return true;
  };
  const ctx: HttpContext = {
    log: (line) => void lines.push(line),
    providers: [answering('first', '/one'), answering('second', '/two')],
    links: answering('links', '/pay/B-1'),
    admin: async (_req, res, path) => {
      if (path !== '/sandbox/clock') return false;
      sendJson(res, 200, { by: 'admin' });
      return true;
    },
  };
  let service: Server;
  let links: Server;
  const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  before(async () => {
    service = createServer(createServiceHandler(ctx));
    links = createServer(createLinksHandler(ctx));
    await Promise.all([service, links].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  });
  after(async () => {
    for (const server of [service, links]) server.closeAllConnections();
    await Promise.all([service, links].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  test('the providers are asked in turn and the first that answers wins; the controls come after them', async () => {
    asked.length = 0;
    assert.deepEqual(await (await fetch(`${urlOf(service)}/one`)).json(), { by: 'first' });
    assert.deepEqual(asked, ['first /one'], 'the second is not asked once the first answered');
    asked.length = 0;
    assert.deepEqual(await (await fetch(`${urlOf(service)}/two`)).json(), { by: 'second' });
    assert.deepEqual(asked, ['first /two', 'second /two']);
    assert.deepEqual(await (await fetch(`${urlOf(service)}/sandbox/clock`)).json(), { by: 'admin' });
    assert.deepEqual(await (await fetch(`${urlOf(links)}/pay/B-1`)).json(), { by: 'links' });
  });

  test('what no route answers: IP-444 JSON on the service origin, a page on the links origin; every request logged', async () => {
    const answer = await fetch(`${urlOf(service)}/nowhere`);
    assert.equal(answer.status, HTTP_STATUS_OF_CODE[CODES.NOT_FOUND]);
    assert.deepEqual(await answer.json(), { code: CODES.NOT_FOUND, error_message: 'No endpoint at /nowhere.' });
    const page = await fetch(`${urlOf(links)}/nowhere`);
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.ok((await page.text()).includes('Nothing at /nowhere.'));
    assert.ok(lines.includes(`service GET /nowhere -> ${HTTP_STATUS_OF_CODE[CODES.NOT_FOUND]}`), lines.join('\n'));
    assert.ok(lines.includes('links GET /nowhere -> 404'), lines.join('\n'));
  });

  test('a route that throws is answered IP-500 and logged with its stack', async () => {
    const throwing: HttpContext = { log: (line) => void lines.push(line), providers: [async () => { throw new Error('broken route'); }], links: async () => false };
    const server = createServer(createServiceHandler(throwing));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`${urlOf(server)}/any`);
      assert.equal(((await answer.json()) as { code: string }).code, CODES.INTERNAL);
      assert.ok(lines.some((line) => line.startsWith('service GET /any failed: Error: broken route')), lines.join('\n'));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
