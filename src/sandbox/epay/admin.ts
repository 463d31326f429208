/**
 * The ePay controls under `{base_url}/sandbox/epay/`: list and read transactions, refund a paid one
 * in full or in part (eSewa has no refund API: refunds show only in the status check), and set
 * `AMBIGUOUS` or `CANCELED` (eSewa halting or reversing a payment). Unauthenticated, as every
 * `/sandbox/` control; chaos never touches them. Answers `{ code, message, data }` like the others.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES } from '../../protocol/contract.js';
import { ok, readObject } from '../admin.js';
import { sendFailure } from '../http.js';
import type { EpayLedger, EpayResult, EpayTransaction } from './ledger.js';
import { paisaOf, plainAmount } from './rules.js';
import { EPAY_SCENARIOS, epayMagicAmountOf } from './scenarios.js';

/** A transaction as the controls show it: the record, with its amounts in rupees. */
function view(transaction: EpayTransaction) {
  return { ...transaction, total_amount: plainAmount(transaction.total_paisa), refunded_amount: plainAmount(transaction.refunded_paisa) };
}

function answer(res: ServerResponse, result: EpayResult, message: string, name: string): void {
  if (result.ok) return ok(res, message, view(result.transaction));
  if (result.reason === 'unknown') return sendFailure(res, CODES.UNKNOWN_BOOKING, `No ePay transaction ${name}.`);
  if (result.reason === 'bad_amount') return sendFailure(res, CODES.INVALID_REQUEST, 'amount must be more than 0 and at most what is left to refund (rupees, at most two decimals).');
  if (result.reason === 'bad_status') return sendFailure(res, CODES.INVALID_REQUEST, 'status must be "AMBIGUOUS" or "CANCELED".');
  sendFailure(res, CODES.ALREADY_PROCESSED, `ePay transaction ${name} is ${result.transaction?.status}: ${result.reason === 'not_refundable' ? 'only a COMPLETE or PARTIAL_REFUND one can be refunded' : 'it cannot change now'}.`);
}

/** Answers a `/sandbox/epay/...` control; false when the path is none of them. */
export function createEpayAdminRoutes(ledger: EpayLedger, log: (line: string) => void) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (path === '/sandbox/epay/transactions') {
      ok(res, 'ePay transactions', ledger.list().map(view));
      return true;
    }
    if (path === '/sandbox/epay/scenarios') {
      ok(res, 'ePay scenarios', EPAY_SCENARIOS.map((s) => ({ ...s, magic_amount: epayMagicAmountOf(s) })));
      return true;
    }
    const match = /^\/sandbox\/epay\/transactions\/([^/]+)\/([^/]+)(?:\/(refund|status))?$/.exec(path);
    if (!match) return false;
    const productCode = decodeURIComponent(match[1]!);
    const uuid = decodeURIComponent(match[2]!);
    const name = `${productCode}/${uuid}`;
    const action = match[3];
    if (!action) {
      const found = ledger.lookup(productCode, uuid);
      if (found) ok(res, 'ePay transaction', view(found));
      else sendFailure(res, CODES.UNKNOWN_BOOKING, `No ePay transaction ${name}.`);
      return true;
    }
    if (req.method !== 'POST') {
      sendFailure(res, CODES.METHOD_NOT_ALLOWED, 'Use POST.', { allow: 'POST' });
      return true;
    }
    const body = await readObject(req, res);
    if (!body) return true;
    if (action === 'refund') {
      const amount = body['amount'];
      const paisa = amount === undefined ? undefined : typeof amount === 'number' || typeof amount === 'string' ? (paisaOf(String(amount)) ?? NaN) : NaN;
      const result = ledger.refund(productCode, uuid, paisa);
      if (result.ok) log(`epay ${name} -> ${result.transaction.status} (refunded ${plainAmount(result.transaction.refunded_paisa)})`);
      answer(res, result, 'ePay transaction refunded', name);
    } else {
      const result = ledger.setStatus(productCode, uuid, String(body['status']));
      if (result.ok) log(`epay ${name} -> ${result.transaction.status} (set by the admin)`);
      answer(res, result, 'ePay status set', name);
    }
    return true;
  };
}
