/**
 * The checker asks as the element does: every `/status` and `/cancel` carries the booking's ids, the
 * order it was made for and the book answer's receipt, in the body the element's booking client sends
 * (a proxy that refuses them, or needs them, is judged as the element would meet it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../src/server/index.js';
import { checkProxy, kitUnderTest, type Fetch } from './support.js';

interface Seen {
  route: string;
  headers: Headers;
  body: Record<string, unknown>;
}

test('status and cancel requests carry the order and the receipt, as the element sends them', async () => {
  const seen: Seen[] = [];
  const booked = new Map<string, { order: unknown; receipt: unknown }>();
  const wrap = (kit: Fetch): Fetch => async (request) => {
    const route = new URL(request.url).pathname.split('/').at(-1) ?? '';
    const text = request.method === 'POST' ? await request.clone().text() : '';
    const answer = await kit(request);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return answer;
    }
    if (route === 'book' && answer.status === 200) {
      const data = ((await answer.clone().json()) as { data: Record<string, unknown> }).data;
      booked.set(String(data.booking_id), { order: (body as { order: unknown }).order, receipt: data.receipt });
    }
    if (route === 'status' || route === 'cancel') seen.push({ route, headers: request.headers, body: body as Record<string, unknown> });
    return answer;
  };
  const { report } = await checkProxy((port) => kitUnderTest(port, { store: createMemoryStore(), wrap }));
  assert.equal(report.failed, 0, report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`).join('\n'));
  // Those of a booking the kit made (the transport clauses send malformed bodies on purpose).
  const asked = seen.filter((s) => booked.has(String(s.body.booking_id)));
  assert.ok(asked.filter((s) => s.route === 'status').length >= 5 && asked.filter((s) => s.route === 'cancel').length >= 3, `too few asked: ${asked.length}`);
  for (const { route, headers, body } of asked) {
    const made = booked.get(String(body.booking_id))!;
    assert.equal(typeof made.receipt, 'string', 'the kit gives a receipt with every booking');
    assert.deepEqual(Object.keys(body), ['booking_id', 'correlation_id', 'order', 'receipt'], `${route}: ${JSON.stringify(body)}`);
    assert.deepEqual(body.order, made.order, `${route} names the order the booking was made for`);
    assert.equal(body.receipt, made.receipt, `${route} sends back the book answer's receipt`);
    assert.equal(headers.get('content-type'), 'application/json');
    assert.equal(headers.get('accept'), 'application/json');
  }
});
