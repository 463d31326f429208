/**
 * `wallet-pay-sandbox callbacks [--dead] [--booking ID] [--json]` and `callbacks resend ID [--to URL]`:
 * the callback desk of a running sandbox from the command line (esewa-intent/tools.ts), over HTTP as
 * the other tools talk.
 * A real sandbox and a real merchant receiver on loopback; the command runs as a process.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { deliveryLine } from '../../../../src/sandbox/esewa-intent/tools.js';
import { bundled } from '../../../support/bundled.js';
import { book, pay, startReceiver, until, type Receiver } from '../support.js';

const CLI = await bundled(new URL('../../../../src/sandbox/cli.ts', import.meta.url));

async function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, out, err };
}

let sandbox: Sandbox;
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ productCode: 'DESK01', callbackRetry: { attempts: 2, baseDelayMs: 0 } });
});
after(async () => {
  await sandbox.close();
  await receiver.close();
});

/** Books and pays one order whose callbacks the receiver answers with `status`; resolves once the desk settled. */
async function paidBooking(status: number): Promise<string> {
  receiver.answer = () => status;
  const { body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'DESK01', callbackUrl: receiver.url });
  const id = body.data!['booking_id']!;
  assert.equal((await pay(sandbox.baseUrl, id)).status, 303);
  await until(() => sandbox.callbackDeliveries({ booking_id: id }).some((d) => d.state !== 'scheduled'), `the callback of ${id} settled`);
  return id;
}

test('lists the desk, the dead letters alone, one booking\'s, and as JSON', async () => {
  const delivered = await paidBooking(200);
  const dead = await paidBooking(500);
  const url = ['--url', sandbox.baseUrl];

  const all = await cli(['callbacks', ...url]);
  assert.equal(all.code, 0, all.err);
  const lines = all.out.trim().split('\n');
  assert.match(lines[0]!, /^2 callback deliveries, newest first \(resend one: wallet-pay-sandbox callbacks resend ID\)$/);
  assert.match(lines[1]!, new RegExp(`^CB-\\d+ +${dead} +SUCCESS +dead +2 attempts +HTTP 500 +\\d{4}-`));
  assert.match(lines[2]!, new RegExp(`^CB-\\d+ +${delivered} +SUCCESS +delivered +1 attempt +HTTP 200 `));

  const letters = await cli(['callbacks', '--dead', ...url]);
  assert.equal(letters.code, 0, letters.err);
  assert.match(letters.out, /^1 dead letter, newest first/);
  assert.ok(letters.out.includes(dead) && !letters.out.includes(delivered), letters.out);

  const one = JSON.parse((await cli(['callbacks', '--booking', delivered, '--json', ...url])).out) as Array<{ booking_id: string; state: string }>;
  assert.deepEqual(one.map((d) => [d.booking_id, d.state]), [[delivered, 'delivered']]);

  const none = await cli(['callbacks', '--booking', 'BK-none', ...url]);
  assert.equal(none.out.trim(), 'no callback deliveries');
});

test('resend sends a dead letter again, to its URL or a loopback --to, and the desk shows the resend', async () => {
  const dead = await paidBooking(500);
  const [letter] = sandbox.callbackDeliveries({ booking_id: dead, state: 'dead' });
  assert.ok(letter, 'a dead letter');
  receiver.answer = () => 200;
  const before = receiver.received.length;

  const resent = await cli(['callbacks', 'resend', letter.id, '--url', sandbox.baseUrl]);
  assert.equal(resent.code, 0, resent.err);
  const [, newId] = /^resent CB-\d+ as (CB-\d+)$/.exec(resent.out.trim()) ?? [];
  assert.ok(newId, resent.out);
  await until(() => sandbox.callbackDeliveries({ booking_id: dead }).some((d) => d.id === newId && d.state === 'delivered'), `${newId} delivered`);
  assert.equal(receiver.received.length, before + 1);
  assert.equal(receiver.received.at(-1)!.body['status'], 'SUCCESS');

  const listed = await cli(['callbacks', '--booking', dead, '--url', sandbox.baseUrl]);
  assert.match(listed.out, new RegExp(`^${newId} +${dead} +SUCCESS +delivered .*\\(resends ${letter.id}\\)$`, 'm'));

  const elsewhere = await cli(['callbacks', 'resend', letter.id, '--to', 'https://elsewhere.example/cb', '--url', sandbox.baseUrl]);
  assert.equal(elsewhere.code, 1);
  assert.match(elsewhere.err, /the sandbox refused callbacks resend CB-\d+ --to https:\/\/elsewhere\.example\/cb: A resend goes to the callback's own origin/);
  const loopback = await cli(['callbacks', 'resend', letter.id, '--to', receiver.url, '--url', sandbox.baseUrl]);
  assert.equal(loopback.code, 0, loopback.err);
  assert.match(loopback.out, new RegExp(`^resent ${letter.id} as CB-\\d+ to ${receiver.url.replace(/[.]/g, '\\.')}$`, 'm'));
});

test('a line of the listing: a delivery not tried yet, and one that met no answer', () => {
  const base = { id: 'CB-7', booking_id: 'BK-1', status: 'FAILED', url: 'http://127.0.0.1:1/cb', created_at: '2026-12-01T10:00:00.000Z' };
  assert.equal(deliveryLine({ ...base, state: 'scheduled', attempts: [] }), 'CB-7     BK-1  FAILED    scheduled  0 attempts  not tried yet  2026-12-01T10:00:00.000Z');
  assert.match(deliveryLine({ ...base, state: 'dead', attempts: [{ error: 'connect ECONNREFUSED', at: '2026-12-01T10:00:01.000Z' }] }), /dead +1 attempt +connect ECONNREFUSED +2026-12-01T10:00:01\.000Z$/);
});
