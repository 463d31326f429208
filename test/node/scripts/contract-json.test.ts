/**
 * contract.json (the OpenAPI 3.1 document, exported as `wallet-pay-button/contract.json`) against
 * src/protocol/contract.ts in both directions: the file is what the source builds; every code of
 * `CODES` is in it with its HTTP status and every code in it is one of `CODES` (or IP-503); every field
 * of the request and answer interfaces is a property of its schema and every property is a field, with
 * the same optionality (read from the TypeScript source itself); and the rules match the checker's clauses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { Validator, type SpecData } from '@seriousme/openapi-schema-validator';
import { CODES, HTTP_STATUS_OF_CODE, IDEMPOTENCY_HEADER, PAYMENT_STATUSES } from '../../../src/protocol/contract.js';
import { CLAUSES } from '../../../src/check/index.js';
import { contractJsonText } from '../../../scripts/contract-json.js';

const FILE = new URL('../../../contract.json', import.meta.url);
const text = readFileSync(FILE, 'utf8');
type Doc = {
  openapi: string;
  paths: Record<string, { post: { parameters?: Array<{ name: string; in: string; required: boolean }>; responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }>;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown>; enum?: string[] }> };
  'x-codes': Array<{ code: string; http: number; meaning: string }>;
  'x-clauses': Array<{ id: string; title: string }>;
};
const doc = JSON.parse(text) as Doc;

test('contract.json is exactly what src/protocol/contract.ts builds (npx tsx scripts/contract-json.ts rewrites it)', () => {
  assert.equal(text, contractJsonText());
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(Object.keys(doc.paths), ['/book', '/status', '/cancel', '/order']);
  assert.ok(doc.webhooks.paymentStatus, 'the callback is a webhook');
});

test('codes: every code of CODES with its HTTP status, and nothing else but IP-503', () => {
  const inDoc = new Map(doc['x-codes'].map((c) => [c.code, c.http]));
  for (const code of Object.values(CODES)) assert.equal(inDoc.get(code), HTTP_STATUS_OF_CODE[code], `${code} in contract.json`);
  for (const [code, http] of inDoc) {
    if (code === 'IP-503') assert.equal(http, 503);
    else assert.equal((HTTP_STATUS_OF_CODE as Record<string, number>)[code], http, `${code} of contract.json is in CODES`);
    assert.ok(doc['x-codes'].find((c) => c.code === code)!.meaning.length > 0, `${code} has a meaning`);
  }
  // Each failure status of each path lists exactly the codes sent with it.
  for (const path of Object.values(doc.paths)) {
    for (const [status, response] of Object.entries(path.post.responses)) {
      if (status === '200') continue;
      const schema = JSON.stringify(response.content);
      for (const { code, http } of doc['x-codes']) assert.equal(schema.includes(`"${code}"`), String(http) === status, `${code} under ${status}`);
    }
  }
  assert.equal(path('/book').post.parameters?.[0]?.name, IDEMPOTENCY_HEADER);
  assert.equal(path('/book').post.parameters?.[0]?.required, true);
});

test('contract.json is a valid OpenAPI 3.1 document (its JSON Schema), and a broken copy is not', async () => {
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(text) as SpecData);
  assert.equal(result.valid, true, JSON.stringify(result.errors));
  assert.equal(validator.version, '3.1');
  const broken = JSON.parse(text) as { paths: Record<string, { post: { responses: unknown } }> };
  delete (broken.paths['/book']!.post as { responses?: unknown }).responses;
  (broken as { info?: unknown }).info = undefined;
  assert.equal((await new Validator().validate(JSON.parse(JSON.stringify(broken)) as SpecData)).valid, false);
});

function path(name: string) {
  return doc.paths[name]!;
}

const contractSource = () => ts.createSourceFile('contract.ts', readFileSync(new URL('../../../src/protocol/contract.ts', import.meta.url), 'utf8'), ts.ScriptTarget.ES2022, true);

/** Members of a type literal or interface: name -> optional. */
function membersOf(source: ts.SourceFile, members: ts.NodeArray<ts.TypeElement>): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const member of members) {
    if (ts.isPropertySignature(member)) found.set(member.name.getText(source), member.questionToken !== undefined);
  }
  return found;
}

/**
 * The shapes of a type of src/protocol/contract.ts, read by the TypeScript parser: one for an
 * interface, one per branch for a union of object types (with the branch's `method`, when it has one).
 */
function shapesOf(name: string): Array<{ members: Map<string, boolean>; method?: string }> {
  const source = contractSource();
  const shapes: Array<{ members: Map<string, boolean>; method?: string }> = [];
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) shapes.push({ members: membersOf(source, node.members) });
    if (ts.isTypeAliasDeclaration(node) && node.name.text === name && ts.isUnionTypeNode(node.type)) {
      for (const branch of node.type.types) {
        if (!ts.isTypeLiteralNode(branch)) continue;
        const method = branch.members.find((m) => ts.isPropertySignature(m) && m.name.getText(source) === 'method') as ts.PropertySignature | undefined;
        const literal = method?.type && ts.isLiteralTypeNode(method.type) && ts.isStringLiteral(method.type.literal) ? method.type.literal.text : undefined;
        shapes.push({ members: membersOf(source, branch.members), ...(literal ? { method: literal } : {}) });
      }
    }
  });
  assert.ok(shapes.length > 0 && shapes.every((shape) => shape.members.size > 0), `type ${name} found in contract.ts`);
  return shapes;
}

for (const name of ['BookRequest', 'BookResult', 'WebPaymentInstruction', 'StatusRequest', 'StatusResult', 'CancelRequest', 'CancelResult', 'OrderRequest', 'OrderResult', 'FailureEnvelope']) {
  test(`schema ${name} has exactly the fields of the type, with the same optionality`, () => {
    const schema = doc.components.schemas[name]! as { required?: string[]; properties?: Record<string, unknown>; allOf?: Array<{ if: unknown; then: { required: string[] } }> };
    const shapes = shapesOf(name);
    const fields = new Set(shapes.flatMap((shape) => [...shape.members.keys()]));
    assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), [...fields].sort());
    // Required in every branch: `required`; required in one branch only: that branch's `if`/`then`.
    const requiredIn = (shape: (typeof shapes)[number]) => [...shape.members].filter(([, optional]) => !optional).map(([field]) => field);
    const always = [...fields].filter((field) => shapes.every((shape) => requiredIn(shape).includes(field)));
    assert.deepEqual([...(schema.required ?? [])].sort(), always.sort());
    const conditional = shapes
      .map((shape) => ({ method: shape.method, more: requiredIn(shape).filter((field) => !always.includes(field)) }))
      .filter((branch) => branch.more.length > 0)
      .map(({ method, more }) => ({ if: { properties: { method: { const: method } } }, then: { required: more } }));
    assert.deepEqual(schema.allOf ?? [], conditional);
  });
}

test('statuses are the spec\'s, and the rules are the checker\'s clauses', () => {
  assert.deepEqual(doc.components.schemas.PaymentStatus!.enum, [...PAYMENT_STATUSES]);
  assert.deepEqual(doc['x-clauses'].map((c) => c.id), CLAUSES.map((c) => c.id));
  assert.equal(doc.components.schemas.BookRequest!.properties!.amount, undefined, 'no amount in a book body');
});
