/** Paying a sandbox booking as a shopper does, for the server tests of every store. */
import assert from 'node:assert/strict';

/** Pays a sandbox booking on its wallet page, as a shopper with the right MPIN does. */
export async function payAtWallet(deeplink: string): Promise<void> {
  const response = await fetch(`${deeplink}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mpin: '1234', method: 'wallet_balance' }).toString(),
    redirect: 'manual',
  });
  assert.equal(response.status, 303);
}
