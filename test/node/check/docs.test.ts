/**
 * docs/backends.md against the code: its clause table is the checker's `CLAUSES` (ids and titles, in
 * order), its five rules are the contract document's, its worked signature example is the vector's, and
 * each example's README stays within 60 lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CLAUSES } from '../../../src/check/index.js';
import { MONEY_RULES } from '../../../src/check/openapi.js';
import { contractRoutesOf, ROUTE_READMES, routesBlock, withRoutes } from '../../../src/check/readme-routes.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const doc = read('docs/backends.md');

/** The rows of the first table after a heading, as cells. */
function tableAfter(text: string, heading: string): string[][] {
  const lines = text.slice(text.indexOf(heading)).split('\n').slice(1);
  const start = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

test('docs/backends.md lists exactly the checker\'s clauses, in order, with their titles', () => {
  assert.ok(doc.includes('### The clauses'));
  const rows = tableAfter(doc, '### The clauses');
  assert.deepEqual(rows.map(([id]) => id), CLAUSES.map((c) => `\`${c.id}\``));
  assert.deepEqual(rows.map(([, title]) => title), CLAUSES.map((c) => c.title));
});

test('docs/backends.md states the five money rules, and each is a rule the clauses name', () => {
  const section = doc.slice(doc.indexOf('## The five rules'), doc.indexOf('## The signature'));
  const numbered = section.split('\n').filter((line) => /^\d\. \*\*/.test(line));
  assert.equal(numbered.length, 5);
  assert.equal(MONEY_RULES.length, 5);
  for (let rule = 1; rule <= 5; rule++) {
    assert.ok(CLAUSES.some((c) => c.section.includes(`rule ${rule} `)), `a clause names rule ${rule}`);
  }
});

test('the worked example is the vector book-amount-1000, byte for byte', () => {
  const vectors = JSON.parse(read('signature-vectors.json')) as { vectors: Array<{ id: string; message: string; message_utf8_hex: string; signature: string }> };
  const v = vectors.vectors.find((x) => x.id === 'book-amount-1000')!;
  const block = doc.slice(doc.indexOf('Worked example'), doc.indexOf('The same amount written'));
  assert.ok(block.includes(`"${v.message}"`));
  assert.ok(block.includes(v.signature));
  // The message's bytes: the indented hex lines between the "message" line and the "HMAC" line.
  const lines = block.split('\n');
  const from = lines.findIndex((line) => line.startsWith('message'));
  const to = lines.findIndex((line) => line.startsWith('HMAC'));
  const hexBytes = lines.slice(from + 1, to).join(' ');
  assert.match(hexBytes, /^[\s0-9a-f]+$/);
  assert.equal(hexBytes.replace(/\s+/g, ''), v.message_utf8_hex);
  const hmac = /HMAC\s+([0-9a-f ]+)\n/.exec(block)![1]!.replace(/\s+/g, '');
  assert.equal(Buffer.from(hmac, 'hex').toString('base64'), v.signature);
});

// PHP's carries its production recipe too (PHP-FPM's pool and nginx's server block, run as written by
// test/node/check/php-production.test.ts), since `php -S` cannot be one.
for (const [kind, lines] of [['php', 130], ['python', 85]] as const) {
  test(`examples/backends/${kind}/README.md is at most ${lines} lines and names how to run it`, () => {
    const readme = read(`examples/backends/${kind}/README.md`);
    assert.ok(readme.trimEnd().split('\n').length <= lines, `${readme.trimEnd().split('\n').length} lines`);
    assert.match(readme, /wallet-pay-check --endpoint/);
    // Its reconciliation from cron, and a check instance away from the dev sandbox's port.
    assert.match(readme, new RegExp(`\\* \\* \\* \\* \\* cd \\S+ && ${kind === 'php' ? 'php proxy\\.php' : 'python3 proxy\\.py'} reconcile`));
    assert.match(readme, /--reconcile-command "[^"]*reconcile"/);
    assert.doesNotMatch(readme, /--sandbox-port 4010/);
    // Run as the tests run it: several requests at once.
    if (kind === 'php') assert.match(readme, /PHP_CLI_SERVER_WORKERS=4 [^\n]*\n?\s*php -S|PHP_CLI_SERVER_WORKERS=4 php -S/);
  });
}

test('the web payment form\'s vector is what the kit signs, and the docs quote the amount warning the checker prints', async () => {
  const { createSignature } = await import('../../../src/protocol/signature.js');
  const { WEB_PAYMENT_SIGNED_FIELDS } = await import('../../../src/protocol/signature.js');
  const { AMOUNT_WARNING } = await import('../../../src/check/esewa-intent/clauses-callback.js');
  const file = JSON.parse(read('signature-vectors.json')) as { vectors: Array<{ kind: string; fields: Record<string, string>; key: string; signature: string; web_payment: { fields: Record<string, string> } }> };
  const form = file.vectors.find((vector) => vector.kind === 'web-payment');
  assert.equal(await createSignature(form!.fields, WEB_PAYMENT_SIGNED_FIELDS, form!.key), form!.signature);
  assert.equal(form!.web_payment.fields.signature, form!.signature);
  assert.ok(doc.replace(/`/g, '').replace(/\s+/g, ' ').includes(AMOUNT_WARNING), 'docs/backends.md says the warning the checker quotes');
});

test('docs/backends.md documents the check instance end to end, away from port 4010, with the production warning', () => {
  const section = doc.slice(doc.indexOf('### The check instance'), doc.indexOf('### The clauses'));
  for (const needle of ['another port', 'another database', 'its own public URL', '--sandbox-port', 'never run it in production', '--reconcile-command', '--callback-origin']) {
    assert.ok(section.includes(needle), needle);
  }
  for (const command of doc.match(/wallet-pay-check --endpoint[^\n]*/g) ?? []) assert.doesNotMatch(command, /--sandbox-port 4010/, command);
  assert.ok(doc.includes('## Reconciliation: the five-minute rule'));
  assert.match(doc, /transaction_uuid[\s\S]{0,200}1 to 64 of `\[A-Za-z0-9_-\]`/);
  assert.match(doc, /`correlation_id`[^.]*\(it carries no `booking_id`\)/);
  assert.match(doc, /any 2xx/);
});

test('each example README lists every route and page of contract.json\'s x-routes, as generated (npx tsx src/check/readme-routes.ts)', () => {
  const routes = contractRoutesOf(read('contract.json'));
  // The pages a backend owes besides the API: the hand-off page, and eSewa's return in the ePay mode.
  assert.deepEqual(routes.map((r) => `${r.method} ${r.route}`), ['POST /book', 'POST /status', 'POST /cancel', 'POST /order', 'POST /callback', 'GET /handoff', 'GET /return']);
  const block = routesBlock(routes);
  for (const path of ROUTE_READMES) {
    const readme = read(path);
    assert.equal(withRoutes(readme, block), readme, `${path}'s routes table is not contract.json's: run npx tsx src/check/readme-routes.ts`);
  }
  assert.throws(() => withRoutes('# no table', block), /markers are missing/);
});

test('docs/backends.md rule 4 delivers a SUCCESS after a cancel, and describes the ePay mode the checker proves with --provider epay', () => {
  const rules = doc.slice(doc.indexOf('## The five rules'), doc.indexOf('## The desktop answer'));
  assert.match(rules, /SUCCESS[^.]*after[^.]*cancel[^.]*delivered/i);
  assert.doesNotMatch(rules, /nothing after `REVERTED`, `FAILED` or `CANCELED`/);
  const epay = doc.slice(doc.indexOf('## eSewa ePay v2'));
  for (const needle of ['--provider epay', 'total_amount,transaction_uuid,product_code', '/api/epay/transaction/status/', 'COMPLETE', 'AMBIGUOUS', 'FULL_REFUND', '1000.0']) {
    assert.ok(epay.includes(needle), needle);
  }
});
