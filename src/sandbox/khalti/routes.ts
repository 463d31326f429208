/**
 * The Khalti emulation's HTTP routes on the service origin, at Khalti's own paths, so merchant code
 * written for Khalti works by changing only its base URL (`{base_url}/api/v2/` for
 * `https://dev.khalti.com/api/v2/`, `{base_url}/api/merchant-transaction/` for refunds):
 * `POST /api/v2/epayment/initiate/`, `POST /api/v2/epayment/lookup/`,
 * `POST /api/merchant-transaction/{transaction_id}/refund/`, each behind `Authorization: Key <access key>`;
 * the pay page at `/khalti/pay/?pidx=…`; and the controls `GET /sandbox/khalti/scenarios` and
 * `GET /sandbox/khalti/payments/{pidx}`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChaosKey } from '../chaos.js';
import { MAX_BODY_BYTES, sendJson, sendPage, type ProviderRoutes } from '../http.js';
import { khaltiMessagePage, khaltiPayPage } from './page.js';
import { languageOf, pageText, type PageTextKey } from '../page-texts.js';
import { maskKhaltiId, TEST_KHALTI_IDS, TEST_MPIN, TEST_OTP, type KhaltiAnswer, type KhaltiPayment, type KhaltiPayments } from './payments.js';
import { KHALTI_MAGIC_PAISA_BASE, KHALTI_SCENARIOS } from './scenarios.js';

/** The pay page's path on the service origin (`payment_url` is `{base_url}/khalti/pay/?pidx=…`). */
export const KHALTI_PAY_PATH = '/khalti/pay/';

/** What the routes reach. */
export interface KhaltiRoutesContext {
  payments: KhaltiPayments;
  accessKey: string;
  log: (line: string) => void;
}

const API = { initiate: '/api/v2/epayment/initiate/', lookup: '/api/v2/epayment/lookup/' } as const;
const REFUND = /^\/api\/merchant-transaction\/([^/]+)\/refund\/$/;

class TooLarge extends Error {}

/** A path segment decoded; a malformed escape is kept as it is (it then matches nothing). */
function segment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Past 8 MiB the connection is dropped rather than drained, as the service's own routes do.
    if (size > 8 * 1024 * 1024) {
      req.destroy();
      break;
    }
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) throw new TooLarge();
  return Buffer.concat(chunks).toString('utf8');
}

/** Khalti's two 401 bodies: no `Key ` scheme at all, or a key that is not the sandbox's. */
function authProblem(req: IncomingMessage, accessKey: string): KhaltiAnswer | undefined {
  const match = /^key\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return { http: 401, body: { detail: 'Authentication credentials were not provided.', status_code: 401 } };
  if (match[1] !== accessKey) return { http: 401, body: { detail: 'Invalid token.', status_code: 401 } };
  return undefined;
}

/** The JSON body of an API call (`{}` when empty), or the answer refusing it. */
async function jsonBody(req: IncomingMessage): Promise<{ body: unknown } | { answer: KhaltiAnswer }> {
  let text: string;
  try {
    text = await readText(req);
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error;
    return { answer: { http: 413, body: { detail: `Request body larger than ${MAX_BODY_BYTES} bytes.` } } };
  }
  if (text.trim() === '') return { body: {} };
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { answer: { http: 415, body: { detail: `Unsupported media type "${type}" in request.` } } };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (error) {
    return { answer: { http: 400, body: { detail: `JSON parse error - ${(error as Error).message}`, error_key: 'validation_error' } } };
  }
}

async function apiCall(ctx: KhaltiRoutesContext, req: IncomingMessage, res: ServerResponse, run: (body: unknown) => KhaltiAnswer): Promise<void> {
  if (req.method !== 'POST') {
    await readText(req).catch(() => undefined);
    sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` }, { allow: 'POST' });
    return;
  }
  const refused = authProblem(req, ctx.accessKey);
  const read = await jsonBody(req);
  const answer = refused ?? ('answer' in read ? read.answer : run(read.body));
  sendJson(res, answer.http, answer.body);
}

/**
 * Where the shopper goes after the page: `return_url` with the parameters Khalti appends, in the
 * order of its sample; a cancel leaves `transaction_id`, `tidx`, `txnId` and `mobile` empty.
 */
export function returnLocation(payment: KhaltiPayment): string {
  const txn = payment.transaction_id ?? '';
  const params: Array<[string, string]> = [
    ['pidx', payment.pidx],
    ['txnId', txn],
    ['amount', String(payment.amount)],
    ['total_amount', String(payment.amount)],
    ['status', payment.status],
    ['mobile', payment.khalti_id ? maskKhaltiId(payment.khalti_id) : ''],
    ['tidx', txn],
    ['purchase_order_id', payment.purchase_order_id],
    ['purchase_order_name', payment.purchase_order_name],
    ['transaction_id', txn],
  ];
  const url = new URL(payment.return_url);
  const query = params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  return url.href;
}

const PAGE_ERRORS: Readonly<Record<'credentials' | 'scenario', PageTextKey>> = { credentials: 'khalti.error-login', scenario: 'error.scenario' };
const LOGIN = { first: TEST_KHALTI_IDS[0], last: TEST_KHALTI_IDS.at(-1)!, mpin: TEST_MPIN, otp: TEST_OTP };

function showPayment(res: ServerResponse, payment: KhaltiPayment | undefined, pidx: string, status = 200, error?: string): void {
  if (!payment) {
    sendPage(res, 404, khaltiMessagePage('Unknown payment', `There is no payment "${pidx}".`));
    return;
  }
  if (payment.status !== 'Initiated') {
    const expired = payment.status === 'Expired';
    sendPage(res, expired ? 410 : 409, khaltiMessagePage(expired ? 'Link expired' : 'Payment closed', `This payment is ${payment.status}.`));
    return;
  }
  sendPage(res, status, khaltiPayPage(payment, KHALTI_PAY_PATH, error, languageOf(res.req.url)));
}

async function payPage(ctx: KhaltiRoutesContext, req: IncomingMessage, res: ServerResponse, paid: (payment: KhaltiPayment) => void): Promise<void> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const pidx = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams.get('pidx') ?? '';
    showPayment(res, ctx.payments.get(pidx), pidx);
    return;
  }
  if (req.method !== 'POST') {
    sendPage(res, 405, khaltiMessagePage('Method not allowed', 'Open this page with GET; its form posts.'), { allow: 'GET, POST' });
    return;
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const text = await readText(req).catch(() => undefined);
  if (type !== 'application/x-www-form-urlencoded' || text === undefined) {
    sendPage(res, 415, khaltiMessagePage('Unsupported form', 'This page accepts only its own HTML form.'));
    return;
  }
  const form = new URLSearchParams(text);
  const pidx = form.get('pidx') ?? '';
  const outcome =
    form.get('action') === 'cancel'
      ? ctx.payments.cancel(pidx)
      : ctx.payments.pay(pidx, { khaltiId: form.get('khalti_id') ?? '', mpin: form.get('mpin') ?? '', otp: form.get('otp') ?? '', scenario: form.get('scenario') ?? '' });
  if (outcome.ok) {
    paid(outcome.payment);
    ctx.log(`khalti ${pidx} -> ${outcome.payment.status}${outcome.payment.scenario ? ` [${outcome.payment.scenario}]` : ''}`);
    res.writeHead(302, { location: returnLocation(outcome.payment), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    res.end();
    return;
  }
  if (outcome.reason === 'credentials' || outcome.reason === 'scenario') showPayment(res, outcome.payment, pidx, 422, pageText(languageOf(req.url), PAGE_ERRORS[outcome.reason], LOGIN));
  else showPayment(res, outcome.payment, pidx);
}

/**
 * What a Khalti request is about, for chaos: the API call or page, and the merchant's
 * `purchase_order_id` (a `pidx` or `transaction_id` is random, so it is looked up).
 */
function khaltiChaosKey(ctx: KhaltiRoutesContext, orders: Map<string, string>, req: IncomingMessage, path: string, body: string): ChaosKey | undefined {
  const fields = (): Record<string, unknown> => {
    try {
      return (JSON.parse(body) as Record<string, unknown> | null) ?? {};
    } catch {
      return {};
    }
  };
  const orderOf = (pidx: unknown): string => (typeof pidx === 'string' ? (ctx.payments.get(pidx)?.purchase_order_id ?? pidx) : '');
  if (path === API.initiate) return { kind: 'khalti initiate', subject: String(fields()['purchase_order_id'] ?? '') };
  if (path === API.lookup) return { kind: 'khalti lookup', subject: orderOf(fields()['pidx']) };
  const refund = REFUND.exec(path);
  if (refund) return { kind: 'khalti refund', subject: orders.get(segment(refund[1]!)) ?? segment(refund[1]!) };
  if (path !== KHALTI_PAY_PATH) return undefined;
  if (req.method !== 'POST') return { kind: 'khalti page', subject: orderOf(new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams.get('pidx') ?? '') };
  const form = new URLSearchParams(body);
  return { kind: `khalti ${form.get('action') === 'cancel' ? 'cancel' : 'pay'}`, subject: orderOf(form.get('pidx') ?? '') };
}

/** The Khalti routes; false when a path is none of them. */
export function createKhaltiRoutes(ctx: KhaltiRoutesContext): ProviderRoutes {
  // transaction_id -> purchase_order_id of paid payments, so chaos keys a refund on its order.
  const orders = new Map<string, string>();
  const paid = (payment: KhaltiPayment) => {
    if (payment.transaction_id) orders.set(payment.transaction_id, payment.purchase_order_id);
  };
  const routes = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (path === API.initiate) {
      const header = req.headers['wallet-pay-scenario'];
      await apiCall(ctx, req, res, (body) => {
        const answer = ctx.payments.initiate(body, typeof header === 'string' ? header : undefined);
        ctx.log(`khalti initiate -> ${answer.http}${answer.payment ? ` ${answer.payment.pidx}${answer.payment.scenario ? ` [${answer.payment.scenario}]` : ''}` : ''}`);
        return answer;
      });
    } else if (path === API.lookup) {
      await apiCall(ctx, req, res, (body) => {
        const answer = ctx.payments.lookup(body);
        ctx.log(`khalti lookup ${String(answer.body['pidx'] ?? '?')} -> ${answer.http} ${String(answer.body['status'] ?? answer.body['detail'] ?? '')}`);
        return answer;
      });
    } else if (REFUND.test(path)) {
      const transactionId = segment(REFUND.exec(path)![1]!);
      await apiCall(ctx, req, res, (body) => ctx.payments.refund(transactionId, body));
    } else if (path === KHALTI_PAY_PATH) await payPage(ctx, req, res, paid);
    else if (path === '/sandbox/khalti/scenarios') {
      sendJson(res, 200, KHALTI_SCENARIOS.map((s) => ({ ...s, magic_amount_paisa: KHALTI_MAGIC_PAISA_BASE + Number(s.id.slice(-3)) })));
    } else if (path.startsWith('/sandbox/khalti/payments/')) {
      const payment = ctx.payments.get(segment(path.slice('/sandbox/khalti/payments/'.length)));
      if (payment) sendJson(res, 200, payment);
      else sendJson(res, 404, { detail: 'Not found.' });
    } else return false;
    return true;
  };
  return Object.assign(routes, { chaosKey: (req: IncomingMessage, path: string, body: string) => khaltiChaosKey(ctx, orders, req, path, body) });
}
