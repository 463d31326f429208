/**
 * What the ePay v2 sandbox tests share: the merchant's form signed with node:crypto (an independent
 * signer), the form POST and the login page's own forms over real HTTP, and the status check.
 */
import { createHmac } from 'node:crypto';

/** eSewa's published UAT secret and merchant code. */
export const PUBLISHED_KEY = '8gBm/:&EnhH.1/q';
export const EPAYTEST = 'EPAYTEST';

export const hmac = (message: string, key: string) => createHmac('sha256', key).update(message).digest('base64');

/** The eleven fields, signed over the strings given; `overrides` are applied after signing. */
export function epayForm(
  input: { key?: string; product?: string; amount?: string; tax?: string; total?: string; uuid?: string; successUrl?: string; failureUrl?: string } = {},
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const amount = input.amount ?? '100';
  const tax = input.tax ?? '0';
  const total = input.total ?? String(Number(amount) + Number(tax));
  const uuid = input.uuid ?? `t-${crypto.randomUUID()}`;
  const product = input.product ?? EPAYTEST;
  const fields: Record<string, string> = {
    amount,
    tax_amount: tax,
    product_service_charge: '0',
    product_delivery_charge: '0',
    total_amount: total,
    transaction_uuid: uuid,
    product_code: product,
    success_url: input.successUrl ?? 'http://127.0.0.1:9/esewa/success',
    failure_url: input.failureUrl ?? 'http://127.0.0.1:9/esewa/failure',
    signed_field_names: 'total_amount,transaction_uuid,product_code',
    signature: hmac(`total_amount=${total},transaction_uuid=${uuid},product_code=${product}`, input.key ?? PUBLISHED_KEY),
  };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete fields[name];
    else fields[name] = value;
  }
  return fields;
}

/** A form POST as a browser sends it; redirects are not followed. */
export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; text: string; response: Response }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, text: await response.text(), response };
}

/** The merchant's form POST to eSewa's form path. */
export const postEpay = (baseUrl: string, fields: Record<string, string>) => postForm(`${baseUrl}/api/epay/main/v2/form`, fields);

/** The login page's form actions, by their last path segment (`pay`, `fail`, `cancel`). */
export function actionsOf(html: string): Record<string, string> {
  const actions: Record<string, string> = {};
  // The last segment before the query: a Nepali page's actions end in `?lang=ne`.
  for (const [, action] of html.matchAll(/<form method="post" action="([^"]+)"/g)) actions[action!.split('?')[0]!.split('/').at(-1)!] = action!;
  return actions;
}

/** The published test login. */
export const LOGIN = { esewa_id: '9806800003', password: 'Nepal@123', token: '123456' };

/** Posts the form, then the page's own pay form with the test login (and `extra`); the final answer. */
export async function payThrough(baseUrl: string, fields: Record<string, string>, extra: Record<string, string> = {}) {
  const page = await postEpay(baseUrl, fields);
  if (page.status !== 200) throw new Error(`form POST answered ${page.status}: ${page.text}`);
  return postForm(`${baseUrl}${actionsOf(page.text)['pay']}`, { ...LOGIN, scenario: '', ...extra });
}

/** The decoded `data` of a success redirect, read raw from after the last `?data=`, and its raw JSON text. */
export function dataOf(location: string): { raw: string; data: Record<string, string> } {
  const encoded = location.slice(location.lastIndexOf('?data=') + '?data='.length);
  const raw = Buffer.from(encoded, 'base64').toString('utf8');
  return { raw, data: JSON.parse(raw) as Record<string, string> };
}

/** eSewa's status check; the raw text too, to see how `total_amount` is written. */
export async function epayStatus(baseUrl: string, product: string, total: string, uuid: string): Promise<{ status: number; raw: string; body: Record<string, unknown> }> {
  const query = new URLSearchParams({ product_code: product, total_amount: total, transaction_uuid: uuid });
  const response = await fetch(`${baseUrl}/api/epay/transaction/status/?${query}`);
  const raw = await response.text();
  return { status: response.status, raw, body: JSON.parse(raw) as Record<string, unknown> };
}
