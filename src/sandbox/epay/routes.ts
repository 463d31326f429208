/**
 * ePay v2 on the sandbox's service origin, at eSewa's own paths: the form POST that opens the login
 * page, the page's own forms (pay, fail, cancel), the signed success redirect, and the status check.
 * Chaos reaches these as every other service path (see `http.ts`); the admin's ePay controls live in
 * `admin.ts` of this folder.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { signatureMessage, signMessage } from '../../protocol/signature.js';
import type { ChaosKey } from '../chaos.js';
import { sendJson, sendPage, type ProviderRoutes } from '../http.js';
import { checkEpayForm } from './form.js';
import type { EpayLedger, EpayResult, EpayTransaction } from './ledger.js';
import { epayLoginPage, epayMessagePage } from './page.js';
import { languageOf, pageText } from '../page-texts.js';
import {
  EPAY_ERRORS,
  EPAY_FORM_PATH,
  EPAY_RESPONSE_SIGNED_FIELDS,
  EPAY_SESSION_PREFIX,
  EPAY_STATUS_PATH,
  EPAY_TEST_LOGIN,
  base64Of,
  epayAmountText,
  epayError,
  epayKeyFor,
  paisaOf,
  plainAmount,
  successLocation,
} from './rules.js';

/** What the ePay routes reach. */
export interface EpayContext {
  ledger: EpayLedger;
  accessKey: string;
  productCodes: readonly string[];
  log: (line: string) => void;
}

const MAX_FORM_BYTES = 64 * 1024;

/** The body of a form POST, or undefined (answered) when it is not one or is too large. */
async function readForm(req: IncomingMessage, res: ServerResponse, json: boolean): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_FORM_BYTES) chunks.push(chunk);
    else if (size > 8 * MAX_FORM_BYTES) {
      req.destroy();
      break;
    }
  }
  const problem =
    type !== 'application/x-www-form-urlencoded'
      ? `Send an HTML form (application/x-www-form-urlencoded); got "${req.headers['content-type'] ?? 'none'}".`
      : size > MAX_FORM_BYTES
        ? `The form is larger than ${MAX_FORM_BYTES} bytes.`
        : undefined;
  if (problem) {
    if (json) sendJson(res, 400, epayError(problem));
    else sendPage(res, 400, epayMessagePage('Invalid form', problem));
    return undefined;
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** `POST /api/epay/main/v2/form`: checks the merchant's form and answers the login page. */
async function formRoute(ctx: EpayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    // A plain GET of eSewa's form URL answers this body; its HTTP status is not reported (405 is ours).
    sendJson(res, 405, EPAY_ERRORS.formUnavailable, { allow: 'POST' });
    return;
  }
  const params = await readForm(req, res, true);
  if (!params) return;
  const checked = await checkEpayForm(params, ctx);
  if (!checked.ok) {
    ctx.log(`epay form refused: ${checked.body.error_message}`);
    sendJson(res, 400, checked.body);
    return;
  }
  const posted = ctx.ledger.post(checked.form, checked.totalPaisa);
  if (!posted.ok) {
    const uuid = checked.form['transaction_uuid'];
    sendJson(
      res,
      400,
      epayError(
        posted.reason === 'conflict'
          ? `transaction_uuid "${uuid}" was already used with other content; use a new one for every request.`
          : `transaction_uuid "${uuid}" is already finished (${posted.transaction?.status}); use a new one for every request.`,
      ),
    );
    return;
  }
  const { transaction } = posted;
  ctx.log(`epay ${transaction.product_code}/${transaction.transaction_uuid} form posted (${plainAmount(transaction.total_paisa)})${transaction.scenario ? ` [${transaction.scenario}]` : ''}`);
  sendPage(res, 200, epayLoginPage(transaction, undefined, languageOf(req.url)));
}

/** The signed `data` of the success redirect, fields in eSewa's order; signed without the comma. */
export async function successData(transaction: EpayTransaction, key: string): Promise<string> {
  const values = {
    transaction_code: transaction.ref_id!,
    status: 'COMPLETE',
    total_amount: epayAmountText(transaction.total_paisa),
    transaction_uuid: transaction.transaction_uuid,
    product_code: transaction.product_code,
    signed_field_names: EPAY_RESPONSE_SIGNED_FIELDS,
  };
  const signature = await signMessage(signatureMessage({ ...values, total_amount: plainAmount(transaction.total_paisa) }, EPAY_RESPONSE_SIGNED_FIELDS), key);
  return base64Of(JSON.stringify({ ...values, signature }));
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end();
}

/** Answers a session that cannot be used: unknown 404, expired 410, finished 409. */
function closedSession(res: ServerResponse, result: Extract<EpayResult, { ok: false }>): void {
  if (result.reason === 'unknown') sendPage(res, 404, epayMessagePage('Unknown session', 'There is no such eSewa payment session.'));
  else if (result.reason === 'expired') sendPage(res, 410, epayMessagePage('Session expired', 'This payment session expired; start again from the merchant.'));
  else sendPage(res, 409, epayMessagePage('Payment finished', `This payment is already ${result.transaction?.status ?? 'finished'}.`));
}

async function finish(ctx: EpayContext, res: ServerResponse, result: Extract<EpayResult, { ok: true }>): Promise<void> {
  const { transaction } = result;
  ctx.log(`epay ${transaction.product_code}/${transaction.transaction_uuid} -> ${transaction.status}${transaction.scenario ? ` [${transaction.scenario}]` : ''}`);
  if (result.redirect !== 'success') return redirect(res, transaction.form['failure_url']!);
  const key = epayKeyFor(transaction.product_code, ctx);
  if (key === undefined) {
    sendPage(res, 500, epayMessagePage('No merchant key', `The sandbox has no key for ${transaction.product_code} any more.`));
    return;
  }
  redirect(res, successLocation(transaction.form['success_url']!, await successData(transaction, key)));
}

/** `/epay/session/{id}` (the page again) and its `/pay`, `/fail`, `/cancel` forms. */
async function sessionRoute(ctx: EpayContext, req: IncomingMessage, res: ServerResponse, sessionId: string, action: string | undefined): Promise<void> {
  if (!action) {
    const opened = ctx.ledger.openSession(sessionId);
    if (!opened.ok) return closedSession(res, opened);
    return sendPage(res, 200, epayLoginPage(opened.transaction, undefined, languageOf(req.url)));
  }
  if (req.method !== 'POST') return sendPage(res, 405, epayMessagePage('Method not allowed', 'Submit this form with POST.'), { allow: 'POST' });
  const form = await readForm(req, res, false);
  if (!form) return;
  if (action !== 'pay') {
    const ended = ctx.ledger.end(sessionId, action === 'fail' ? 'fail' : 'cancel');
    return ended.ok ? finish(ctx, res, ended) : closedSession(res, ended);
  }
  const opened = ctx.ledger.openSession(sessionId);
  if (!opened.ok) return closedSession(res, opened);
  const loginOk =
    (EPAY_TEST_LOGIN.ids as readonly string[]).includes(form.get('esewa_id') ?? '') &&
    form.get('password') === EPAY_TEST_LOGIN.password &&
    form.get('token') === EPAY_TEST_LOGIN.token;
  const lang = languageOf(req.url);
  if (!loginOk) {
    const { ids, password, token } = EPAY_TEST_LOGIN;
    const error = pageText(lang, 'epay.error-login', { first: ids[0], last: ids.at(-1)!, password, token });
    return sendPage(res, 422, epayLoginPage(opened.transaction, error, lang));
  }
  const paid = ctx.ledger.pay(sessionId, form.get('scenario') || undefined);
  if (paid.ok) return finish(ctx, res, paid);
  if (paid.reason === 'unknown_scenario') return sendPage(res, 422, epayLoginPage(opened.transaction, pageText(lang, 'error.scenario'), lang));
  return closedSession(res, paid);
}

/** The status check's answer; `total_amount` is written as a JSON number with one decimal, as eSewa's example (`100.0`). */
function statusBody(productCode: string, uuid: string, paisa: number, status: string, refId: string | null): string {
  const j = JSON.stringify;
  return `{"product_code":${j(productCode)},"transaction_uuid":${j(uuid)},"total_amount":${plainAmount(paisa)},"status":${j(status)},"ref_id":${j(refId)}}`;
}

/** `GET /api/epay/transaction/status/?product_code=&total_amount=&transaction_uuid=`, no auth. */
function statusRoute(ctx: EpayContext, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, epayError('Use GET.'), { allow: 'GET' });
  const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
  const productCode = query.get('product_code') ?? '';
  const uuid = query.get('transaction_uuid') ?? '';
  const paisa = paisaOf(query.get('total_amount') ?? '');
  if (!productCode || !uuid || paisa === undefined) {
    return sendJson(res, 400, epayError('Send product_code, total_amount (a decimal number) and transaction_uuid in the query.'));
  }
  const transaction = ctx.ledger.lookup(productCode, uuid);
  // Another amount or product code than the transaction's is answered as an unknown transaction:
  // our reading of how eSewa treats a lookup that matches nothing (it documents no other answer).
  const found = transaction && transaction.total_paisa === paisa ? transaction : undefined;
  const text = found
    ? statusBody(productCode, uuid, found.total_paisa, found.status, found.ref_id)
    : statusBody(productCode, uuid, paisa, 'NOT_FOUND', null);
  ctx.log(`epay status ${productCode}/${uuid} -> ${found?.status ?? 'NOT_FOUND'}`);
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/**
 * What an ePay request is about, for chaos: the form, a page action or the status check, and the
 * merchant's `transaction_uuid` (a session id is random, so it is looked up; the lookup touches nothing).
 */
function epayChaosKey(ctx: EpayContext, req: IncomingMessage, path: string, body: string): ChaosKey | undefined {
  if (path === EPAY_FORM_PATH) return { kind: 'epay form', subject: new URLSearchParams(body).get('transaction_uuid') ?? '' };
  if (path === EPAY_STATUS_PATH) return { kind: 'epay status', subject: new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams.get('transaction_uuid') ?? '' };
  const session = /^([^/]+)(?:\/(pay|fail|cancel))?$/.exec(path.startsWith(EPAY_SESSION_PREFIX) ? path.slice(EPAY_SESSION_PREFIX.length) : '');
  if (!session) return undefined;
  const found = ctx.ledger.snapshot().find((transaction) => transaction.session_id === session[1]);
  return { kind: `epay ${session[2] ?? 'page'}`, subject: found?.transaction_uuid ?? session[1]! };
}

/** Answers an ePay path of the service origin; false when the path is none of them. */
export function createEpayRoutes(ctx: EpayContext): ProviderRoutes {
  const routes = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (path === EPAY_FORM_PATH) await formRoute(ctx, req, res);
    else if (path === EPAY_STATUS_PATH) statusRoute(ctx, req, res);
    else if (path.startsWith(EPAY_SESSION_PREFIX)) {
      const match = /^([^/]+)(?:\/(pay|fail|cancel))?$/.exec(path.slice(EPAY_SESSION_PREFIX.length));
      if (!match) return false;
      let sessionId = match[1]!;
      try {
        sessionId = decodeURIComponent(sessionId);
      } catch {
        // a malformed escape matches no session
      }
      await sessionRoute(ctx, req, res, sessionId, match[2]);
    } else return false;
    return true;
  };
  return Object.assign(routes, { chaosKey: (req: IncomingMessage, path: string, body: string) => epayChaosKey(ctx, req, path, body) });
}
