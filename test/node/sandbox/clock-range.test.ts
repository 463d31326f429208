/**
 * The clock's range: a move past 9999-12-31T23:59:59.999Z (or an endless one) is refused with the
 * limit and a move that fits, and the clock keeps its time, over HTTP, from code, across a restart with
 * a state file, and through the command line's `clock` verb. A state file whose clock is out of range
 * stops the start with the fix instead of failing every later answer.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLOCK_LIMIT_MS, ClockRangeError, SandboxClock } from '../../../src/sandbox/clock.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { bundled } from '../../support/bundled.js';
import { control } from './support.js';

const CLI = await bundled(new URL('../../../src/sandbox/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wpb-clock-range-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LIMIT = /no later than 9999-12-31T23:59:59\.999Z/;

/** The CLI run to its end (at most 60 s): exit code, stdout and stderr. */
async function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  assert.notEqual(code, null, `wallet-pay-sandbox ${args.join(' ')} did not end within 60 s: ${out}${err}`);
  return { code, out, err };
}

describe('the clock keeps within its range', () => {
  test('from code: an advance or a set past the limit, or an endless advance, is refused with the limit and a fitting move; the time stays', async () => {
    const clock = new SandboxClock(() => Date.UTC(2026, 0, 1));
    const ran: number[] = [];
    clock.after(60_000, () => ran.push(clock.now()));
    await assert.rejects(clock.advance(1e20), (error: unknown) => {
      assert.ok(error instanceof ClockRangeError);
      assert.match(error.message, LIMIT);
      const days = Math.floor((CLOCK_LIMIT_MS - Date.UTC(2026, 0, 1)) / 86_400_000);
      assert.ok(error.message.endsWith(`Advance by at most ${days}d, e.g. 15m.`), error.message);
      return true;
    });
    await assert.rejects(clock.advance(Infinity), /advancing an endless time/);
    await assert.rejects(clock.set(8.64e15), /no later than 9999-12-31T23:59:59\.999Z; set a time up to it, e\.g\. 2027-01-01T00:00:00\.000Z\.$/);
    await assert.rejects(clock.set(Infinity), ClockRangeError);
    await assert.rejects(clock.set(-Infinity), /moves forward only: -Infinity ms is before 2026-01-01/);
    assert.equal(clock.offsetMs(), 0, 'no refused move moved it');
    assert.deepEqual(ran, [], 'nor ran what was due on the way');
    assert.equal(await clock.set(CLOCK_LIMIT_MS), CLOCK_LIMIT_MS, 'the limit itself is a time it takes');
    assert.equal(ran.length, 1);
    await assert.rejects(clock.advance(1), /The clock is at its limit; no move forward fits\.$/);
    clock.stop();
  });

  test('a saved offset out of range (or not a number) is refused at construction, naming the state file and the fix', () => {
    for (const offset of [1e20, Number.NaN, -1e20]) {
      assert.throws(() => new SandboxClock(Date.now, offset), (error: unknown) => {
        assert.ok(error instanceof ClockRangeError, String(error));
        assert.match(error.message, /The saved clock is out of range: an offset of .* ms puts it past 9999-12-31T23:59:59\.999Z/);
        assert.match(error.message, /Remove "clockOffsetMs" from the state file \(sandbox\.json in the --data folder\)/);
        return true;
      });
    }
  });

  test('POST /sandbox/clock: every form of an out-of-range move is refused (400, IP-421) with the limit and an example, the clock kept; GET still answers, across a restart', async () => {
    const stateFile = join(dir, 'restart', 'sandbox.json');
    const first = await startSandbox({ stateFile });
    let offset: number;
    try {
      const moved = await control<{ now: string; offset_ms: number }>(first.baseUrl, '/sandbox/clock', { advance: '1d' });
      assert.equal(moved.status, 200);
      offset = moved.data.offset_ms;
      for (const [body, message] of [
        [{ advance: '99999999d' }, /no later than 9999-12-31T23:59:59\.999Z: advancing 99999999d from .* Advance by at most \d+d, e\.g\. 15m\./],
        [{ advance: '9'.repeat(400) }, /no later than 9999-12-31T23:59:59\.999Z: advancing an endless time/],
        [{ set: '+275760-09-13T00:00:00Z' }, /no later than 9999-12-31T23:59:59\.999Z; set a time up to it, e\.g\. \d{4}-/],
        [{ set: '+010000-01-01T00:00:00Z' }, /no later than 9999-12-31T23:59:59\.999Z; set a time/],
        [{ set: '+275761-01-01T00:00:00Z' }, /"\+275761-01-01T00:00:00Z" is not a time the clock takes: send an ISO time up to 9999-12-31T23:59:59\.999Z, e\.g\. \{"set":"2030-01-01T00:00:00Z"\}\./],
      ] as const) {
        const refused = await control(first.baseUrl, '/sandbox/clock', body);
        assert.equal(refused.status, 400, JSON.stringify(body));
        assert.equal(refused.body['code'], 'IP-421');
        assert.match(String(refused.body['error_message']), message);
        const read = await control<{ offset_ms: number }>(first.baseUrl, '/sandbox/clock');
        assert.equal(read.status, 200, `GET after ${JSON.stringify(body)}`);
        assert.equal(read.data.offset_ms, offset, `${JSON.stringify(body)} kept the clock's time`);
      }
    } finally {
      await first.close();
    }
    // Fresh ports: the saved ones would meet the client's kept-alive sockets to the closed sandbox.
    const second = await startSandbox({ stateFile, port: 0, linksPort: 0 });
    try {
      const read = await control<{ now: string; offset_ms: number }>(second.baseUrl, '/sandbox/clock');
      assert.equal(read.status, 200);
      assert.equal(read.data.offset_ms, offset);
      const late = await control<{ now: string }>(second.baseUrl, '/sandbox/clock', { set: '9999-12-31T23:00:00Z' });
      assert.equal(late.status, 200, 'a time just inside the limit is taken');
      assert.ok(late.data.now.startsWith('9999-12-31T23:00:0'));
    } finally {
      await second.close();
    }
  });

  test('the CLI: `clock advance` past the limit prints the sandbox\'s words (exit 1); a state file out of range stops the start with the fix', async () => {
    const sandbox = await startSandbox();
    try {
      const refused = await cli(['clock', 'advance', '99999999d', '--url', sandbox.baseUrl]);
      assert.equal(refused.code, 1, refused.err);
      assert.match(refused.err, /the sandbox refused clock advance 99999999d: The clock reaches no later than 9999-12-31T23:59:59\.999Z: .* Advance by at most \d+d, e\.g\. 15m\./);
      const shown = await cli(['clock', '--url', sandbox.baseUrl]);
      assert.equal(shown.code, 0, shown.err);
      assert.match(shown.out, /^sandbox clock: \d{4}-/m);
    } finally {
      await sandbox.close();
    }
    const data = join(dir, 'old-state');
    rmSync(data, { recursive: true, force: true });
    const written = await startSandbox({ stateFile: join(data, 'sandbox.json') });
    await control(written.baseUrl, '/sandbox/clock', { advance: '1m' });
    await written.close();
    // What the earlier code left after `{"advance":"99999999999d"}`: an offset no Date can show.
    writeFileSync(join(data, 'sandbox.json'), JSON.stringify({ version: 1, bookings: [], clockOffsetMs: 99_999_999_999 * 86_400_000 }));
    const start = await cli(['--data', data, '--port', '0', '--links-port', '0']);
    assert.equal(start.code, 1, `${start.out}${start.err}`);
    assert.match(start.err, /wallet-pay-sandbox: could not start: The saved clock is out of range: .* Remove "clockOffsetMs" from the state file \(sandbox\.json in the --data folder\)/);
  });
});
