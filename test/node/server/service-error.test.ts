/**
 * The error every provider's call fails with, and the capped read of a provider's answer: a body
 * past the cap is refused whether its length is declared or only streamed, and its reading stops there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerTooLarge, readCapped, ServiceError } from '../../../src/server/service-error.js';
import { answer, listen } from './helpers.js';

/** A response whose body comes in `chunks`, recording how many were pulled and whether it was cancelled. */
function streamed(chunks: string[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[seen.pulled++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(chunk));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), seen };
}

test('ServiceError keeps the operation, kind, code, HTTP status and cause', () => {
  const cause = new Error('socket hang up');
  const error = new ServiceError('refund', 'unavailable', 'IP-502', 503, 'Khalti could not be reached.', { cause });
  assert.ok(error instanceof Error);
  assert.deepEqual(
    { name: error.name, operation: error.operation, kind: error.kind, code: error.code, httpStatus: error.httpStatus, message: error.message, cause: error.cause },
    { name: 'ServiceError', operation: 'refund', kind: 'unavailable', code: 'IP-502', httpStatus: 503, message: 'Khalti could not be reached.', cause },
  );
  assert.equal(new ServiceError('status', 'timeout', 'IP-504', undefined, 'slow').httpStatus, undefined);
});

test('readCapped reads a body within the cap whole, multi-byte characters split across chunks included', async () => {
  const bytes = new TextEncoder().encode('{"name":"भुक्तानी"}');
  // The first chunk ends inside the Devanagari word: the bytes are joined before they are decoded.
  const halves = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, 11));
      controller.enqueue(bytes.slice(11));
      controller.close();
    },
  });
  assert.equal(await readCapped(new Response(halves), bytes.byteLength), '{"name":"भुक्तानी"}');
  assert.equal(await readCapped(new Response(null), 10), '', 'no body reads as empty');
});

test('readCapped refuses a declared length past the cap without reading the body', async () => {
  const { response, seen } = streamed(['x'.repeat(100)], { 'content-length': '100' });
  await assert.rejects(readCapped(response, 99), AnswerTooLarge);
  assert.equal(seen.pulled <= 1, true, 'at most the stream\'s first pull happened');
  assert.equal(seen.cancelled, true, 'the body was let go');
});

test('readCapped stops an undeclared body at the cap and lets the rest go', async () => {
  const { response, seen } = streamed(['a'.repeat(60), 'b'.repeat(60), 'c'.repeat(60), 'd'.repeat(60)]);
  await assert.rejects(readCapped(response, 100), AnswerTooLarge);
  assert.equal(seen.pulled < 4, true, `read stopped early (${seen.pulled} chunks pulled)`);
  assert.equal(seen.cancelled, true, 'the body was cancelled');
  const { response: exact } = streamed(['a'.repeat(50), 'b'.repeat(50)]);
  assert.equal((await readCapped(exact, 100)).length, 100, 'a body of exactly the cap is read');
});

test("readCapped under the request's signal refuses a body that ended after the abort: a cloned answer ends empty then, it does not fail", async () => {
  const server = await listen(answer(200, 'application/json', '{"code":"IP-200","data":{"booking_id":"b"}}'));
  try {
    const ask = async () => {
      const controller = new AbortController();
      const response = await fetch(server.url, { signal: controller.signal });
      // A merchant's fetch that logs its answers reads a clone; the abort then comes before the caller reads.
      await response.clone().text();
      controller.abort();
      return { response, signal: controller.signal };
    };
    const guarded = await ask();
    await assert.rejects(readCapped(guarded.response, 1000, guarded.signal), { name: 'AbortError' });
    const whole = await fetch(server.url, { signal: new AbortController().signal });
    assert.equal(await readCapped(whole, 1000, new AbortController().signal), '{"code":"IP-200","data":{"booking_id":"b"}}', 'a signal that never aborts changes nothing');
  } finally {
    await server.close();
  }
});
