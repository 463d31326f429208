/**
 * The soak's ledger past the sandbox's real bound: the sandbox's booking rules (in process, signed
 * requests) take MAX_BOOKINGS + 50 bookings, each paid as a shopper would; the sandbox's list then
 * holds only MAX_BOOKINGS of them, and the ledger, read the way the soak reads it, holds every one with
 * its final status.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { MAX_BOOKINGS, SandboxService } from '../src/sandbox/esewa-intent/service.js';
import { SoakLedger } from './soak-ledger.js';

test(`past the sandbox's ${MAX_BOOKINGS} kept bookings, the ledger still holds every booking and its final status`, { timeout: 120_000 }, async () => {
  let now = 1_000_000;
  const service = new SandboxService({ accessKey: 'k', productCodes: ['P'], bookingTtlMs: 60_000, now: () => now, linksUrl: () => 'http://127.0.0.1:1' });
  const ledger = new SoakLedger(service);
  const received: string[] = [];
  const extra = 50;
  for (let i = 0; i < MAX_BOOKINGS + extra; i++) {
    const uuid = `soak-${i}`;
    const signature = createHmac('sha256', 'k').update(`product_code=P,amount=10,transaction_uuid=${uuid}`).digest('base64');
    const body = {
      product_code: 'P', amount: 10, transaction_uuid: uuid, signed_field_names: 'product_code,amount,transaction_uuid', signature,
      callback_url: 'http://127.0.0.1:1/cb', redirect_url: 'http://127.0.0.1:1/r', properties: { merchant_order: `S-${i}` },
    };
    const result = await service.handle('book', JSON.stringify(body));
    const id = (result.body as unknown as { data?: { booking_id?: string } }).data?.booking_id;
    assert.ok(id, `booking ${i} was refused: ${JSON.stringify(result.body)}`);
    received.push(id);
    ledger.follow(id);
    // A refused payment every tenth, as the soak's shoppers mix them.
    assert.equal(service.confirm(id, i % 10 === 0 ? '0000' : '1234', 'wallet_balance').ok, true);
    now += 1;
    ledger.poll();
  }
  ledger.sweep();

  const listed = new Set(service.listBookings().map((b) => b.booking_id));
  assert.equal(listed.size, MAX_BOOKINGS, 'the sandbox keeps its bound');
  assert.equal(received.filter((id) => !listed.has(id)).length, extra, "counting from the list, these would read as lost");
  const seen = ledger.bookings();
  assert.equal(seen.length, MAX_BOOKINGS + extra);
  assert.deepEqual(received.filter((id) => !ledger.has(id)), [], 'every booking answered to a shopper is in the ledger');
  assert.equal(seen.filter((b) => b.status === 'FAILED').length, (MAX_BOOKINGS + extra) / 10);
  assert.equal(seen.filter((b) => b.status === 'SUCCESS').length, ((MAX_BOOKINGS + extra) * 9) / 10);
  assert.deepEqual(seen[0], { booking_id: received[0], correlation_id: seen[0]!.correlation_id, status: 'FAILED', order: 'S-0' }, 'the first, long dropped by the sandbox, kept final');
});
