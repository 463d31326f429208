/**
 * Broken proxies made from the example proxies by one change each, the mistakes a PHP or Python shop
 * makes when it writes its own: each must fail exactly the clause that names it. The change is applied
 * to a copy of the example's file (the test fails when the line it changes is gone).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startExample, type ExampleKind, type ExampleSettings } from './examples.js';
import { checkEachBroken, type BrokenProxy } from './broken-runner.js';
import { AMOUNT, checkProxy, PREFIX } from './support.js';

/** An example proxy with its text or settings changed. */
interface BrokenExample extends BrokenProxy {
  kind: ExampleKind;
  /** Pairs of [what the example says, what the broken copy says instead]. */
  changes?: Array<[string, string]>;
  /** The file the changes apply to; default the proxy's own (its sibling modules are copied beside it). */
  file?: string;
  settings?: Partial<ExampleSettings>;
}

const BROKEN: BrokenExample[] = [
  {
    kind: 'php',
    name: 'reads the key without a lock (as a plain BEGIN does) and books with a random transaction_uuid',
    fault: 'one-booking-per-key',
    changes: [
      ['        foreach ($buckets as $b) { $files[] = $f = fopen("$dir/$b.lock", \'c\'); flock($f, LOCK_EX); }\n', ''],
      ["'transaction_uuid' => 'tx_' . substr(hash('sha256', \"$key|$fingerprint|{$order['amount']}\"), 0, 40),", "'transaction_uuid' => bin2hex(random_bytes(16)),"],
    ],
  },
  {
    kind: 'php',
    name: 'verifies callbacks on the amount json_decode parsed',
    fault: 'callback-amount-as-written',
    changes: [['amount={$m[1][0]}', 'amount=" . json_encode($v[\'amount\']) . "']],
  },
  {
    kind: 'php',
    name: 'has a reconcile command that asks the service nothing',
    fault: 'reconcile-asks-service',
    changes: [['    $rows = $q->fetchAll();\n', '    $rows = [];\n']],
  },
  {
    kind: 'python',
    name: 'records every final status it is told (a SUCCESS replayed after its refund pays again)',
    fault: 'success-replay-after-refund',
    changes: [
      [
        "\n        AND (status IN ('BOOKED', 'PENDING') OR (status = 'SUCCESS' AND ? = 'REVERTED'))\"\"\", (status, booking[\"booking_id\"], status)).rowcount",
        '""", (status, booking["booking_id"])).rowcount',
      ],
    ],
  },
  {
    kind: 'python',
    name: 'lets a FAILED overwrite a SUCCESS and unpay the order',
    fault: 'failed-after-success',
    changes: [
      ["OR (status = 'SUCCESS' AND ? = 'REVERTED')", "OR (status = 'SUCCESS' AND ? IS NOT NULL)"],
      ['    if changed and status in ("SUCCESS", "REVERTED"):\n', '    if changed:\n'],
    ],
  },
  {
    kind: 'python',
    name: 'books a new key without cancelling the open booking of the order',
    fault: 'open-booking-replaced',
    changes: [['        for old in conn.execute("SELECT * FROM bookings WHERE order_id = ? AND status IN (\'BOOKED\', \'PENDING\')", (order["id"],)).fetchall():', '        for old in []:']],
  },
  {
    kind: 'python',
    name: 'ignores a SUCCESS after its CANCELED (the shopper paid, the order stays unpaid)',
    fault: 'paid-after-cancel',
    changes: [['    if not changed and status == "SUCCESS":\n', '    if False:\n']],
  },
  {
    kind: 'php',
    name: 'answers /order from its records alone (an order paid at the service is "not paid" until its callback)',
    fault: 'order-paid-before-callback',
    changes: [["        if ($claim->rowCount() === 1) { try { ask_service($db, $cfg, $b); } catch (Refusal) {} }", '']],
  },
  {
    kind: 'php',
    name: 'sends the phone of a hand-off back to the checkout',
    fault: 'handoff-page',
    changes: [['\'redirect_url\' => ($body->handoff ?? false) ? "{$cfg[\'public\']}/api/pay/handoff" : ', '\'redirect_url\' => ']],
  },
  {
    kind: 'python',
    name: 'in its ePay mode, takes a return without checking its signature',
    fault: 'epay-return-forged-refused',
    changes: [['if not ok or not hmac.compare_digest(sign(message, EPAY["secret"]).encode(), v["signature"].encode()) or', 'if not ok or']],
    settings: { provider: 'epay' },
  },
  {
    kind: 'python',
    name: 'in its ePay mode, reads the return\'s numbers as floats (1000.0 signed as 1000)',
    fault: 'epay-return-raw-text',
    changes: [['.decode(), parse_float=str, parse_int=str)', '.decode(), parse_float=lambda t: str(float(t)), parse_int=str)']],
    settings: { provider: 'epay' },
  },
  {
    kind: 'php',
    name: 'in its ePay mode, fulfils on a signed return\'s COMPLETE without asking the status check',
    fault: 'epay-status-decides',
    changes: [[
      "        $status = ask_epay($db, $cfg, $b)['status'];\n",
      "        $status = str_contains($query, 'data=') ? 'SUCCESS' : ask_epay($db, $cfg, $b)['status'];\n        if ($status === 'SUCCESS') record($db, $b, 'SUCCESS');\n",
    ]],
    settings: { provider: 'epay' },
  },
  {
    kind: 'python',
    name: 'in its ePay mode, takes AMBIGUOUS for paid',
    fault: 'epay-ambiguous-open',
    changes: [['"AMBIGUOUS": "PENDING"', '"AMBIGUOUS": "SUCCESS"']],
    settings: { provider: 'epay' },
  },
  {
    kind: 'php',
    name: 'in its ePay mode, takes FULL_REFUND for paid',
    fault: 'epay-full-refund-reverted',
    changes: [["'FULL_REFUND' => 'REVERTED'", "'FULL_REFUND' => 'SUCCESS'"]],
    settings: { provider: 'epay' },
  },
  {
    kind: 'php',
    name: 'in its Khalti mode, answers payment_url to be posted to, not opened by GET',
    fault: 'khalti-book',
    changes: [["'web_payment' => ['url' => $b['deeplink'], 'method' => 'GET']", "'web_payment' => ['url' => $b['deeplink'], 'method' => 'POST']"]],
    settings: { provider: 'khalti' },
  },
  {
    kind: 'php',
    name: 'in its Khalti mode, sends Khalti rupees where it takes paisa',
    fault: 'khalti-book',
    file: 'khalti.php',
    changes: [["return (int) $m[1] * 100 + (int) str_pad($m[2] ?? '', 2, '0');", 'return (int) $m[1];']],
    settings: { provider: 'khalti' },
  },
  {
    kind: 'php',
    name: 'in its Khalti mode, fulfils on the return\'s status=Completed',
    fault: 'khalti-return-not-trusted',
    file: 'khalti.php',
    changes: [
      [
        "        $status = ask_khalti($db, $cfg, $b)['status'];\n",
        "        $status = ($_GET['status'] ?? '') === 'Completed' ? 'SUCCESS' : ask_khalti($db, $cfg, $b)['status'];\n        if ($status === 'SUCCESS') record($db, $b, 'SUCCESS');\n",
      ],
    ],
    settings: { provider: 'khalti' },
  },
  {
    kind: 'php',
    name: 'in its Khalti mode, takes a lookup answered HTTP 400 for an error',
    fault: 'khalti-lookup-400-canceled',
    file: 'khalti.php',
    changes: [["!($http === 200 || ($http === 400 && in_array($v['status'], ['Expired', 'User canceled'], true)))", '$http !== 200']],
    settings: { provider: 'khalti' },
  },
  {
    kind: 'php',
    name: 'in its Khalti mode, fulfils the order the return\'s purchase_order_id names once the pidx is Completed',
    fault: 'khalti-forged-return',
    file: 'khalti.php',
    changes: [
      [
        "        $status = ask_khalti($db, $cfg, $b)['status'];\n",
        "        $status = ask_khalti($db, $cfg, $b)['status'];\n        if ($status === 'SUCCESS') $db->prepare('UPDATE orders SET paid = 1 WHERE id = ?')->execute([(string) ($_GET['purchase_order_id'] ?? '')]);\n",
      ],
    ],
    settings: { provider: 'khalti' },
  },
  {
    kind: 'python',
    name: 'in its Khalti mode, takes a lookup answered HTTP 400 for an error',
    fault: 'khalti-lookup-400-canceled',
    file: 'providers.py',
    changes: [[' or (http == 400 and v["status"] in ("Expired", "User canceled"))', '']],
    settings: { provider: 'khalti' },
  },
  {
    kind: 'python',
    name: 'in its Khalti mode, fulfils on the return\'s status=Completed',
    fault: 'khalti-return-not-trusted',
    changes: [
      [
        '    status = ask_service(conn, b)["status"]\n    if json.loads',
        '    status = "SUCCESS" if KHALTI["on"] and "status=Completed" in query else ask_service(conn, b)["status"]\n    record(conn, b, status) if status == "SUCCESS" else None\n    if json.loads',
      ],
    ],
    settings: { provider: 'khalti' },
  },
  {
    kind: 'python',
    name: 'runs with a wrong PUBLIC_URL',
    fault: 'callback-url-origin',
    settings: { publicUrl: 'http://127.0.0.1:9' },
  },
];

const FILE: Record<ExampleKind, string> = { php: 'proxy.php', python: 'proxy.py' };
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'wpb-broken-examples-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The folder of a copy of the example's file with the changes; fails when the example no longer says what a change replaces. */
function brokenCopy(broken: BrokenExample, index: number): string | undefined {
  if (!broken.changes) return undefined;
  const example = fileURLToPath(new URL(`../../../examples/backends/${broken.kind}/`, import.meta.url));
  const file = broken.file ?? FILE[broken.kind];
  let text = readFileSync(join(example, file), 'utf8');
  for (const [from, to] of broken.changes) {
    assert.ok(text.includes(from), `the ${broken.kind} example's ${file} no longer says: ${from}`);
    text = text.replace(from, to);
  }
  const folder = join(dir, `variant-${index}`);
  mkdirSync(folder);
  const extension = FILE[broken.kind].slice(FILE[broken.kind].lastIndexOf('.'));
  for (const name of readdirSync(example).filter((n) => n.endsWith(extension))) copyFileSync(join(example, name), join(folder, name));
  writeFileSync(join(folder, file), text);
  return folder;
}

let dbCount = 0;
/** An example proxy for a sandbox port, on a database of its own. */
const example = (kind: ExampleKind, port: number, settings: Partial<ExampleSettings> = {}) =>
  startExample(kind, { sandboxPort: port, db: join(dir, `broken-${++dbCount}.sqlite`), orderPrefix: PREFIX, amount: AMOUNT, ...settings });

checkEachBroken('the checker fails each broken example on exactly the clause that names its fault', BROKEN, {
  concurrency: 2,
  title: (broken) => `${broken.fault}: a ${broken.kind} proxy that ${broken.name}`,
  prepare: (broken, index) => {
    const folder = brokenCopy(broken, index);
    return async (port) => {
      const proxy = await example(broken.kind, port, { ...(folder ? { dir: folder } : {}), ...broken.settings });
      return { ...proxy, reconcile: proxy.reconcile, ...(broken.settings?.provider ? { provider: broken.settings.provider } : {}) };
    };
  },
});

/** An example in its intent mode checked as if it ran one web provider's. */
const WRONG_MODE: Array<{ kind: ExampleKind; provider: 'epay' | 'khalti'; title: string; says: RegExp }> = [
  {
    kind: 'python',
    provider: 'epay',
    title: 'a proxy in its intent mode checked with --provider epay fails every ePay clause, saying where its form must go',
    says: /EPAY_FORM_URL set to the sandbox.*breaks: backends\.md "eSewa ePay v2"/,
  },
  {
    kind: 'php',
    provider: 'khalti',
    title: 'a proxy in its intent mode checked with --provider khalti fails every Khalti clause, saying where its Khalti calls must go',
    says: /KHALTI_BASE_URL set to the sandbox.*breaks: backends\.md "Khalti KPG-2"/,
  },
];

for (const wrong of WRONG_MODE) {
  test(wrong.title, async () => {
    const { report, output } = await checkProxy(async (port) => ({ ...(await example(wrong.kind, port)), provider: wrong.provider }));
    const failed = report.clauses.filter((c) => !c.ok && !c.skipped);
    assert.deepEqual(failed.map((c) => c.id), report.clauses.filter((c) => c.id.startsWith(`${wrong.provider}-`)).map((c) => c.id), output);
    for (const clause of failed) assert.match(clause.detail, wrong.says);
  });
}
