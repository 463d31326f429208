/**
 * The playground's record lookup (`/api/merchant/bookings/{id}`): a page that can arrive before the
 * service's callback asks with `?wait=MS` and gets the record once it is written, with no 404 first
 * (which the page's console would show as an error).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPlayground, type Playground } from '../../e2e/support.js';

let pg: Playground;
before(async () => {
  pg = await startPlayground();
});
after(async () => {
  await pg?.close();
});

const record = (id: string) => ({ booking_id: id, order_id: 'A-1001/test', amount: 100, status: 'SUCCESS' as const, verified_by: 'callback' as const });

test('a lookup with ?wait=MS answers the record written while it waits', async () => {
  const id = `BK-${crypto.randomUUID()}`;
  const asked = fetch(`${pg.origin}/api/merchant/bookings/${id}?wait=5000`, { signal: AbortSignal.timeout(10_000) });
  setTimeout(() => pg.records.set(id, record(id)), 300);
  const response = await asked;
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), record(id));
});

test('without ?wait, or past the wait, an unknown booking is 404 with the envelope', async () => {
  const id = `BK-${crypto.randomUUID()}`;
  for (const query of ['', '?wait=200', '?wait=nonsense', '?wait=-5']) {
    const response = await fetch(`${pg.origin}/api/merchant/bookings/${id}${query}`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(response.status, 404, query);
    assert.equal(((await response.json()) as { code: string }).code, 'IP-404', query);
  }
});
