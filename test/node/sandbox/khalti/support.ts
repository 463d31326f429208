/**
 * What the Khalti emulation's tests share: calls made as merchant code written for Khalti makes them
 * (only the base URL changed), and the shopper on the pay page, all over real HTTP with a time limit.
 */
import { khaltiHeaders } from '../../../../src/providers/khalti/wire.js';

/** Every request of these tests fails after this long instead of hanging. */
export const LIMIT_MS = 5000;

/** An answer: HTTP status, text, and the JSON when it is JSON. */
export interface Answer {
  status: number;
  text: string;
  json: Record<string, unknown>;
  headers: Headers;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a page, or an empty answer
  }
  return { status: response.status, text, json, headers: response.headers };
}

/** A POST to one of Khalti's API paths on the sandbox with `Authorization: Key <key>` (or the headers given). */
export async function khaltiPost(baseUrl: string, path: string, body: unknown, auth: { key?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers = auth.headers ?? khaltiHeaders(auth.key ?? 'sandbox-access-key');
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(LIMIT_MS),
  });
  return answer(response);
}

/** A valid initiate body of Rs 12.50 unless told otherwise. */
export function initiateBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    return_url: 'http://127.0.0.1:9/khalti/return?cart=7',
    website_url: 'http://127.0.0.1:9/',
    amount: 1250,
    purchase_order_id: 'order-1',
    purchase_order_name: 'Masala <tea>',
    ...over,
  };
}

/** Initiates and returns the `pidx`; fails when the initiate does not answer 200. */
export async function initiate(baseUrl: string, over: Record<string, unknown> = {}, headers?: Record<string, string>): Promise<{ pidx: string; body: Record<string, unknown> }> {
  const result = await khaltiPost(baseUrl, '/api/v2/epayment/initiate/', initiateBody(over), headers ? { headers: { ...headers } } : {});
  if (result.status !== 200) throw new Error(`initiate answered ${result.status}: ${result.text}`);
  return { pidx: String(result.json['pidx']), body: result.json };
}

/** A lookup of `pidx`. */
export function lookup(baseUrl: string, pidx: string): Promise<Answer> {
  return khaltiPost(baseUrl, '/api/v2/epayment/lookup/', { pidx });
}

/** GET of a page (no redirect followed). */
export async function getPage(url: string): Promise<Answer> {
  return answer(await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(LIMIT_MS) }));
}

/** The shopper submits the pay page's form (defaults: test ID 9800000004, MPIN 1111, OTP 987654, pay). */
export async function submitPage(baseUrl: string, pidx: string, form: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}/khalti/pay/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ pidx, khalti_id: '9800000004', mpin: '1111', otp: '987654', action: 'pay', ...form }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(LIMIT_MS),
  });
  return answer(response);
}
