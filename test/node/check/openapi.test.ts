/** The contract document, read as the functions build it: routes, failures by status, rules and clauses. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildContractDocument, MONEY_RULES } from '../../../src/check/openapi.js';
import { CLAUSES } from '../../../src/check/clauses.js';
import { HTTP_STATUS_OF_CODE } from '../../../src/protocol/contract.js';

type Node = Record<string, unknown>;
const doc = buildContractDocument() as Node & { paths: Record<string, { post: Node }>; components: { schemas: Record<string, Node> } };

/** Every `$ref` anywhere in `value`. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, v]) => (key === '$ref' && typeof v === 'string' ? [v] : refs(v)));
  return [];
}

test('the four routes are POSTs with a body and a 200, each failure status listing exactly its codes', () => {
  assert.deepEqual(Object.keys(doc.paths), ['/book', '/status', '/cancel', '/order']);
  const failures = new Map<string, string[]>();
  for (const [code, http] of Object.entries({ ...HTTP_STATUS_OF_CODE, 'IP-503': 503 })) if (http >= 300) failures.set(String(http), [...(failures.get(String(http)) ?? []), code].sort());
  for (const [route, item] of Object.entries(doc.paths)) {
    const responses = item.post['responses'] as Record<string, { content: Record<string, { schema: Node }>; headers: Record<string, unknown> }>;
    assert.ok(item.post['requestBody'], `${route} has a body`);
    assert.deepEqual(Object.keys(responses).filter((s) => s !== '200').sort(), [...failures.keys()].sort(), route);
    for (const [status, codes] of failures) {
      const schema = responses[status]!.content['application/json; charset=utf-8']!.schema as { allOf: [Node, { properties: { code: { enum: string[] } } }] };
      assert.deepEqual([...schema.allOf[1].properties.code.enum].sort(), codes, `${route} ${status}`);
      assert.ok(responses[status]!.headers['Cache-Control'] && responses[status]!.headers['X-Content-Type-Options'], `${route} ${status} names the safety headers`);
    }
    assert.ok(responses['405']!.headers['Allow'], `${route}: 405 names Allow`);
    assert.ok(responses['503']!.headers['Retry-After'], `${route}: 503 names Retry-After`);
  }
  const cancelOk = (doc.paths['/cancel']!.post['responses'] as Record<string, { content: Record<string, { schema: { properties: { code: { enum: string[] } } } }> }>)['200']!;
  assert.deepEqual(cancelOk.content['application/json; charset=utf-8']!.schema.properties.code.enum, ['IP-210']);
});

test('every schema the document refers to is declared in it', () => {
  const declared = new Set(Object.keys(doc.components.schemas).map((name) => `#/components/schemas/${name}`));
  const missing = [...new Set(refs(doc))].filter((ref) => !declared.has(ref));
  assert.deepEqual(missing, []);
});

test('codes are sorted, each with its status and a meaning; rules and clauses are carried as declared', () => {
  const codes = doc['x-codes'] as Array<{ code: string; http: number; meaning: string }>;
  assert.deepEqual(codes.map((c) => c.code), [...codes.map((c) => c.code)].sort());
  for (const c of codes) assert.ok(c.meaning.length > 0, `${c.code} has a meaning`);
  assert.deepEqual(codes.find((c) => c.code === 'IP-503'), { code: 'IP-503', http: 503, meaning: "The merchant's store is unavailable for a moment; retry after Retry-After seconds." });
  assert.deepEqual(doc['x-money-rules'], [...MONEY_RULES]);
  assert.match((doc['info'] as { description: string }).description, new RegExp(`\\n5\\. ${MONEY_RULES[4].slice(0, 30)}`));
  assert.deepEqual((doc['x-clauses'] as Array<{ id: string; provider: string }>).map((c) => `${c.id} ${c.provider}`), CLAUSES.map((c) => `${c.id} ${'provider' in c ? c.provider : 'intent'}`));
});

test('x-routes: the four POSTs and the callback, then the pages, each with a summary', () => {
  const routes = doc['x-routes'] as Array<{ method: string; route: string; provider: string; summary: string }>;
  assert.deepEqual(routes.map((r) => `${r.method} ${r.route} ${r.provider}`), ['POST /book both', 'POST /status both', 'POST /cancel both', 'POST /order both', 'POST /callback intent', 'GET /handoff both', 'GET /return epay,khalti']);
  for (const r of routes) assert.ok(r.summary.length > 10, r.route);
  assert.equal(routes[0]!.summary, doc.paths['/book']!.post['summary']);
});
