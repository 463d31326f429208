/** Paying a sandbox booking as a shopper does, for the server tests of every store. */
import assert from 'node:assert/strict';

/** Pays a sandbox booking on its wallet page as a shopper does, with the right MPIN unless told (`0000` is refused). */
export async function payAtWallet(deeplink: string, mpin = '1234'): Promise<void> {
  const response = await fetch(`${deeplink}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mpin, method: 'wallet_balance' }).toString(),
    redirect: 'manual',
  });
  assert.equal(response.status, 303, `the wallet page answered ${response.status}`);
}
