/**
 * The example proxies of examples/backends/ (PHP, Python), run as real processes: every checker clause
 * passes; each signs the shared signature vectors with its own code and verifies the vectors' callback
 * bodies (refusing altered ones); a restart between booking and payment loses nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { ensureBackends } from '../../../scripts/backends.mjs';
import { EXAMPLE_KINDS, startExample, type ExampleKind, type RunningExample } from './examples.js';
import { AMOUNT, checkProxy, freePort, isPortFree, PREFIX } from './support.js';
import { clausesFor } from '../../../src/check/clauses.js';

const INTENT_CLAUSES = clausesFor();

const VECTORS_PATH = fileURLToPath(new URL('../../../signature-vectors.json', import.meta.url));
const vectors = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as {
  vectors: Array<{ id: string; kind: string; operation: string; key: string; message: string; signature: string; signed_field_names: string; body?: string; data?: string; fields: Record<string, string> }>;
  must_fail: Array<{ id: string; key: string; message: string; signature: string; expected_signature: string; why: string }>;
};
const exampleDir = (kind: ExampleKind) => fileURLToPath(new URL(`../../../examples/backends/${kind}/`, import.meta.url));

let programs: { php: string; python: string };
let dir: string;
before(() => {
  programs = ensureBackends({ log: () => {} }) as { php: string; python: string };
  dir = mkdtempSync(join(tmpdir(), 'wpb-examples-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));
let dbCount = 0;
const freshDb = () => join(dir, `shop-${++dbCount}.sqlite`);

function run(program: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { cwd, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env }, timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${program} ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** Each example's own sign(), fed every message of the vectors file by a few lines of its own language. */
const SIGN_ALL: Record<ExampleKind, (program: string) => [string, string[]]> = {
  php: (php) => [
    php,
    ['-r', `require 'proxy.php'; $f = json_decode(file_get_contents(getenv('VECTORS')), true); $out = [];
      foreach (array_merge($f['vectors'], $f['must_fail']) as $v) $out[$v['id']] = sign($v['message'], $v['key']);
      echo json_encode($out);`],
  ],
  python: (python) => [
    python,
    ['-c', `import json, os, proxy
f = json.load(open(os.environ["VECTORS"], encoding="utf-8"))
print(json.dumps({v["id"]: proxy.sign(v["message"], v["key"]) for v in f["vectors"] + f["must_fail"]}))`],
  ],
};

/** Each example's own ePay form code, fed the booking of eSewa's published form example (uuid 241028, total 110). */
const EPAY_FORM: Record<ExampleKind, (program: string) => [string, string[]]> = {
  php: (php) => [php, ['-r', `require 'proxy.php'; echo json_encode(epay_answer($cfg, ['booking_id' => '241028', 'amount' => '110']));`]],
  python: (python) => [python, ['-c', 'import json, proxy\nprint(json.dumps(proxy.epay_answer({"booking_id": "241028", "amount": "110"})))']],
};

/** Each example's own paisa(), fed 1250.5, 0.07, 10 and the largest amount, then 12.345 (three decimals: refused). */
const PAISA: Record<ExampleKind, (program: string) => [string, string[]]> = {
  php: (php) => [php, ['-r', `require 'proxy.php'; echo json_encode([paisa('1250.5'), paisa('0.07'), paisa('10'), paisa('999999999.99')]);
    try { paisa('12.345'); } catch (Refusal $r) { echo ' ', $r->ipCode; }`]],
  python: (python) => [python, ['-c', `import json, providers
try:
    providers.paisa("12.345")
except providers.Refusal as r:
    print(json.dumps([providers.paisa(a) for a in ("1250.5", "0.07", "10", "999999999.99")], separators=(",", ":")), r.code)`]],
};

/** Reads the example's SQLite file with Python's sqlite3 (Node 20 has no SQLite of its own). */
async function paidFlag(db: string, orderId: string): Promise<number | null> {
  const out = await run(programs.python, ['-c', 'import sqlite3, sys, json; r = sqlite3.connect(sys.argv[1]).execute("SELECT paid FROM orders WHERE id = ?", (sys.argv[2],)).fetchone(); print(json.dumps(r[0] if r else None))', db, orderId], dir);
  return JSON.parse(out) as number | null;
}

for (const kind of EXAMPLE_KINDS) {
  describe(`the ${kind} example proxy`, () => {
    test('passes every clause of the checker', async () => {
      const { report, ms, output } = await checkProxy(async (port) => {
        const proxy = await startExample(kind, { sandboxPort: port, db: freshDb(), orderPrefix: PREFIX, amount: AMOUNT });
        return { ...proxy, reconcile: proxy.reconcile };
      });
      assert.deepEqual(report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`), [], output);
      assert.equal(report.passed, INTENT_CLAUSES.length);
      console.log(`checker against the ${kind} example: ${ms} ms`);
    });

    test('in its ePay mode (PROVIDER=epay, eSewa on the sandbox) passes every ePay clause and the transport ones', async () => {
      const { report, output } = await checkProxy(async (port) => ({
        ...(await startExample(kind, { sandboxPort: port, db: freshDb(), orderPrefix: PREFIX, amount: AMOUNT, provider: 'epay' })),
        provider: 'epay' as const,
      }));
      assert.deepEqual(report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`), [], output);
      assert.deepEqual(report.clauses.map((c) => c.id), clausesFor('epay').map((c) => c.id));
    });

    test('in its Khalti mode (PROVIDER=khalti, Khalti on the sandbox) passes every Khalti clause and the transport ones', async () => {
      const { report, output } = await checkProxy(async (port) => ({
        ...(await startExample(kind, { sandboxPort: port, db: freshDb(), orderPrefix: PREFIX, amount: AMOUNT, provider: 'khalti' })),
        provider: 'khalti' as const,
      }));
      assert.deepEqual(report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`), [], output);
      assert.deepEqual(report.clauses.map((c) => c.id), clausesFor('khalti').map((c) => c.id));
    });

    test('signs every message of signature-vectors.json as the file says (the web payment form too), and no must-fail case matches', async () => {
      const [program, args] = SIGN_ALL[kind](kind === 'php' ? programs.php : programs.python);
      const signed = JSON.parse(await run(program, args, exampleDir(kind), { VECTORS: VECTORS_PATH })) as Record<string, string>;
      for (const v of vectors.vectors) assert.equal(signed[v.id], v.signature, v.id);
      for (const c of vectors.must_fail) {
        assert.equal(signed[c.id], c.expected_signature, c.id);
        assert.notEqual(signed[c.id], c.signature, c.id);
      }
    });

    test('verifies the vectors\' callback bodies as written (1000.0 stays 1000.0), and refuses them altered', async () => {
      const proxy = await startExample(kind, { sandboxPort: await freePort(), db: freshDb(), orderPrefix: PREFIX, amount: AMOUNT });
      const post = async (body: string) => {
        const response = await fetch(`${proxy.endpoint}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
        return { status: response.status, code: ((await response.json()) as { code: string }).code };
      };
      try {
        for (const v of vectors.vectors.filter((x) => x.operation === 'callback')) {
          // Signed right, for a booking this proxy never made: past the signature, refused as unknown.
          assert.deepEqual(await post(v.body!), { status: 404, code: 'IP-404' }, v.id);
          const amount = v.fields.amount!;
          // The same number written otherwise: 1000 -> 1000.0, 1000.0 -> 1000.00, 250.5 -> 250.50.
          const rewritten = v.body!.replace(`"amount":${amount}`, `"amount":${amount}${amount.includes('.') ? '0' : '.0'}`);
          assert.notEqual(rewritten, v.body);
          assert.deepEqual(await post(rewritten), { status: 401, code: 'IP-400' }, `${v.id} with its amount rewritten`);
          assert.deepEqual(await post(v.body!.replace(/"status":"[A-Z]+"/, '"status":"REVERTED"')), { status: 401, code: 'IP-400' }, `${v.id} with its status changed`);
        }
      } finally {
        await proxy.stop();
      }
    });

    test('in its ePay mode, signs eSewa\'s published form vector with its own form code, and its return page verifies the return vectors as written (1000.0, "2,700.0") and refuses them altered', async () => {
      const request = vectors.vectors.find((v) => v.kind === 'epay-request')!;
      const [program, args] = EPAY_FORM[kind](kind === 'php' ? programs.php : programs.python);
      const form = JSON.parse(await run(program, args, exampleDir(kind), { PROVIDER: 'epay', EPAY_PRODUCT_CODE: request.fields.product_code!, EPAY_SECRET: request.key })) as {
        web_payment: { fields: Record<string, string> };
      };
      assert.equal(form.web_payment.fields.signature, request.signature);
      assert.equal(form.web_payment.fields.signed_field_names, request.signed_field_names);
      const proxy = await startExample(kind, { sandboxPort: await freePort(), db: freshDb(), orderPrefix: PREFIX, amount: AMOUNT, provider: 'epay' });
      const visit = async (data: string) => {
        const response = await fetch(`${proxy.url}/api/pay/return?data=${data}`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
        await response.body?.cancel();
        return response.status;
      };
      const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
      try {
        for (const v of vectors.vectors.filter((x) => x.kind === 'epay-return')) {
          // Signed right, for a payment this proxy never booked: past the signature, refused as unknown.
          assert.equal(await visit(v.data!), 404, v.id);
          assert.equal(await visit(b64(v.body!.replace('"COMPLETE"', '"PENDING"'))), 400, `${v.id} with its status changed`);
        }
        const docs = vectors.vectors.find((x) => x.id === 'epay-return-docs')!;
        const rewritten = vectors.must_fail.find((x) => x.id === 'epay-return-amount-rewritten')!;
        assert.equal(await visit(b64(docs.body!.replace('"total_amount":1000.0', '"total_amount":1000'))), 400, rewritten.why);
        assert.equal(await visit(b64(docs.body!.replace('"total_amount":1000.0', '"total_amount":"1000.0"'))), 404, 'the same amount as text verifies too');
        assert.equal(await visit('not-base64!'), 400);
        // eSewa's status check out of reach (nothing listens on the proxy's EPAY_STATUS_URL): /status is IP-502, never a guess.
        const key = `epay-down-${crypto.randomUUID()}`;
        const booked = (await (await fetch(`${proxy.endpoint}/book`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ channel: 'app', order: { id: `${PREFIX}down-1` } }), signal: AbortSignal.timeout(10_000) })).json()) as { data: { booking_id: string; correlation_id: string; channel: string } };
        assert.equal(booked.data.channel, 'web', 'app is answered web');
        const status = await fetch(`${proxy.endpoint}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ booking_id: booked.data.booking_id, correlation_id: booked.data.correlation_id }), signal: AbortSignal.timeout(15_000) });
        assert.equal(status.status, 502);
        assert.equal(((await status.json()) as { code: string }).code, 'IP-502');
      } finally {
        await proxy.stop();
      }
    });

    test('in its Khalti mode, amounts are paisa exactly, and a refused initiate, Khalti out of reach, a lookup of another amount or of an unknown pidx are refusals, never a guess', async () => {
      const [program, args] = PAISA[kind](kind === 'php' ? programs.php : programs.python);
      assert.equal((await run(program, args, exampleDir(kind))).trim(), '[125050,7,1000,99999999999] IP-501');
      const sandbox: Sandbox = await startSandbox({});
      const sandboxPort = Number(new URL(sandbox.baseUrl).port);
      const db = freshDb();
      const proxies = [
        await startExample(kind, { sandboxPort, db, orderPrefix: PREFIX, amount: AMOUNT, provider: 'khalti' }),
        await startExample(kind, { sandboxPort: await freePort(), db: freshDb(), orderPrefix: PREFIX, amount: AMOUNT, provider: 'khalti' }),
        await startExample(kind, { sandboxPort, db: freshDb(), orderPrefix: PREFIX, amount: 5, provider: 'khalti' }),
      ];
      const [proxy, unreachable, tooSmall] = proxies as [RunningExample, RunningExample, RunningExample];
      const post = async (on: RunningExample, route: string, body: unknown, key?: string) => {
        const response = await fetch(`${on.endpoint}/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
        return { status: response.status, body: (await response.json()) as { code: string; error_message?: string; data: Record<string, string> } };
      };
      try {
        const order = { id: `${PREFIX}khalti-failures-1` };
        const booked = await post(proxy, 'book', { channel: 'app', order }, `khalti-${crypto.randomUUID()}`);
        assert.equal(booked.status, 200, JSON.stringify(booked.body));
        const pidx = booked.body.data.booking_id!;
        const paid = await fetch(`${sandbox.baseUrl}/khalti/pay/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ pidx, khalti_id: '9800000000', mpin: '1111', otp: '987654', action: 'pay' }).toString(), redirect: 'manual', signal: AbortSignal.timeout(10_000) });
        assert.equal(paid.status, 302);
        // The booking's amount in the store no longer Khalti's: its Completed is refused, not fulfilled.
        await run(programs.python, ['-c', 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE bookings SET amount = ? WHERE booking_id = ?", ("1250.49", sys.argv[2])); c.commit()', db, pidx], dir);
        const other = await post(proxy, 'status', { booking_id: pidx, correlation_id: pidx });
        assert.deepEqual([other.status, other.body.code], [502, 'IP-502'], JSON.stringify(other.body));
        assert.equal(await paidFlag(db, order.id), 0, 'a Completed of another amount pays nothing');
        // A pidx Khalti never initiated: its lookup's 404 is no cancellation.
        await run(programs.python, ['-c', 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE bookings SET booking_id = ?, correlation_id = ? WHERE booking_id = ?", ("CHKunknownPidx", "CHKunknownPidx", sys.argv[2])); c.commit()', db, pidx], dir);
        const unknown = await post(proxy, 'status', { booking_id: 'CHKunknownPidx', correlation_id: 'CHKunknownPidx' });
        assert.deepEqual([unknown.status, unknown.body.code], [502, 'IP-502'], JSON.stringify(unknown.body));
        const down = await post(unreachable, 'book', { channel: 'web', order: { id: `${PREFIX}khalti-failures-2` } }, `khalti-${crypto.randomUUID()}`);
        assert.deepEqual([down.status, down.body.code], [502, 'IP-502'], JSON.stringify(down.body));
        // Rs 5 is 500 paisa, under Khalti's 1000: its validation error is passed on as IP-501.
        const small = await post(tooSmall, 'book', { channel: 'web', order: { id: `${PREFIX}khalti-failures-3` } }, `khalti-${crypto.randomUUID()}`);
        assert.deepEqual([small.status, small.body.code], [500, 'IP-501'], JSON.stringify(small.body));
        assert.match(small.body.error_message ?? '', /Khalti refused the payment: .*1000 paisa/);
      } finally {
        for (const running of proxies) await running.stop();
        await sandbox.close();
      }
    });

    test('stop() returns once its port is free again, so a restart on that port can listen', async () => {
      for (let round = 0; round < 3; round++) {
        const proxy = await startExample(kind, { sandboxPort: 1, db: freshDb(), orderPrefix: PREFIX, amount: AMOUNT });
        await fetch(`${proxy.endpoint}/book`, { method: 'GET', signal: AbortSignal.timeout(5_000) });
        await proxy.stop();
        assert.ok(await isPortFree(proxy.port), `round ${round + 1}: port ${proxy.port} still taken after stop()`);
      }
    });

    test('a restart between booking and payment loses nothing: the status, the paid order and the key survive', async () => {
      const sandbox: Sandbox = await startSandbox({ callbackRetry: { attempts: 5, baseDelayMs: 200 } });
      const db = freshDb();
      const settings = { sandboxPort: Number(new URL(sandbox.baseUrl).port), db, orderPrefix: PREFIX, amount: AMOUNT };
      let proxy = await startExample(kind, settings);
      const port = proxy.port;
      try {
        const order = { id: `${PREFIX}restart-1` };
        const key = `restart-${crypto.randomUUID()}`;
        const book = (k: string): Promise<Response> =>
          fetch(`${proxy.endpoint}/book`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': k }, body: JSON.stringify({ channel: 'app', order }), signal: AbortSignal.timeout(10_000) });
        const first = (await (await book(key)).json()) as { data: { booking_id: string; correlation_id: string } };
        await proxy.stop();
        // Paid while the proxy is down: the service's first callback attempts find no one.
        const paid = await fetch(`${sandbox.linksUrl}/pay/${first.data.booking_id}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'mpin=1234&method=wallet_balance', redirect: 'manual' });
        assert.equal(paid.status, 303);
        proxy = await startExample(kind, { ...settings, port });
        const status = await fetch(`${proxy.endpoint}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ correlation_id: first.data.correlation_id, booking_id: first.data.booking_id }), signal: AbortSignal.timeout(10_000) });
        assert.equal(((await status.json()) as { data: { status: string } }).data.status, 'SUCCESS');
        assert.equal(await paidFlag(db, order.id), 1, "the order is paid in the proxy's own SQLite store");
        const again = (await (await book(key)).json()) as { data: { booking_id: string } };
        assert.equal(again.data.booking_id, first.data.booking_id, 'the key still names its booking');
        assert.equal(((await (await book(`restart-${crypto.randomUUID()}`)).json()) as { code: string }).code, 'IP-412');
      } finally {
        await proxy.stop();
        await sandbox.close();
      }
    });
  });
}
