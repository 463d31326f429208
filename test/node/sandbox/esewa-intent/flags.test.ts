/**
 * The intent service's flags of the sandbox's command line read on their own: defaults filled in, each
 * flag into its option, the refusals (a links port equal to the port, an unknown profile, a number out
 * of range) through the readers the command line passes, and the lines the running sandbox prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INTENT_FLAG_EXAMPLES, INTENT_FLAGS, INTENT_USAGE, intentBanner, intentFlagOptions, type FlagReaders } from '../../../../src/sandbox/esewa-intent/flags.js';

class FlagError extends Error {}

/** Readers as the command line's, reduced to what the flags need: a whole number in range, else an error naming the flag. */
const readers: FlagReaders = {
  integer: (flag, text, min, max) => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new FlagError(`--${flag} out of range: ${text}`);
    return Number(text);
  },
  fail: (flag, problem) => new FlagError(`${flag}: ${problem}`),
};

test('without flags: the links port 4011 and five callback attempts a second apart, nothing else', () => {
  assert.deepEqual(intentFlagOptions({}, 4010, readers), { linksPort: 4011, callbackRetry: { attempts: 5, baseDelayMs: 1000 } });
});

test('each flag becomes its option', () => {
  const values = { 'links-port': '5001', 'booking-ttl': '30', 'callback-attempts': '3', 'callback-delay': '250', strict: true, profile: 'esewa-uat' };
  assert.deepEqual(intentFlagOptions(values, 5000, readers), {
    linksPort: 5001,
    bookingTtlMs: 30_000,
    callbackRetry: { attempts: 3, baseDelayMs: 250 },
    strict: true,
    profile: 'esewa-uat',
  });
});

test('a links port equal to the port, an unknown profile and an out-of-range number are refused by name', () => {
  const refused = (values: Parameters<typeof intentFlagOptions>[0], port: number, message: RegExp) =>
    assert.throws(() => intentFlagOptions(values, port, readers), (error: unknown) => error instanceof FlagError && message.test(error.message), JSON.stringify(values));
  refused({ 'links-port': '4500' }, 4500, /^links-port: --port and --links-port must differ; both are 4500$/);
  refused({ profile: 'live' }, 4010, /^profile: --profile must be one of spec, esewa-uat; got "live"$/);
  refused({ 'booking-ttl': '0' }, 4010, /^--booking-ttl out of range: 0$/);
  refused({ 'callback-attempts': '21' }, 4010, /^--callback-attempts out of range: 21$/);
  // Port 0 asks for any free port twice: the two cannot clash.
  assert.equal(intentFlagOptions({ 'links-port': '0' }, 0, readers).linksPort, 0);
});

test('every flag has its help line, its parseArgs entry and an example of its own', () => {
  for (const flag of Object.keys(INTENT_FLAGS)) {
    assert.match(INTENT_USAGE, new RegExp(`^  --${flag}\\b`, 'm'), flag);
    assert.ok(INTENT_FLAG_EXAMPLES[flag]?.startsWith(`--${flag}`), flag);
  }
  assert.match(INTENT_USAGE, /--links-port <n> .*\(default 4011\)/);
  assert.match(INTENT_USAGE, /--booking-ttl <seconds> .*\(default 900\)/);
});

test("the banner gives the service's addresses and says how unknown fields are taken", () => {
  const sandbox = { baseUrl: 'http://127.0.0.1:4010', webPaymentUrl: 'http://127.0.0.1:4010/web/pay', linksUrl: 'http://127.0.0.1:4011' };
  const lenient = intentBanner(sandbox, undefined);
  assert.equal(lenient.addresses.length, 4);
  assert.match(lenient.addresses[1]!, /http:\/\/127\.0\.0\.1:4010\/api\/client\/intent\/payment\/\{book,status,cancel\}$/);
  assert.match(lenient.addresses[3]!, /http:\/\/127\.0\.0\.1:4011\/pay\/\{booking_id\}$/);
  assert.match(lenient.fields, /ignored, with a warning line/);
  assert.match(intentBanner(sandbox, true).fields, /refused with IP-422 \(--strict\)/);
});
