/** The handler's providers on stub providers: which books a channel, which made a booking, and each failure's refusal. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProviders } from '../../../src/server/provider-calls.js';
import { Refusal } from '../../../src/server/http.js';
import { ServiceError } from '../../../src/server/service-error.js';
import type { PaymentProvider } from '../../../src/server/provider.js';

/** A stub provider: `fail` is what its calls throw, if anything. */
function provider(name: string, wallet: string, channels: string[], extra: { cancel?: boolean; fail?: unknown; explain?: (e: ServiceError) => Error } = {}): PaymentProvider {
  const answer = async () => {
    if (extra.fail) throw extra.fail;
    return { status: 'BOOKED' };
  };
  return {
    name,
    wallet,
    capabilities: { channels, cancel: extra.cancel ?? false, refund: false },
    book: answer,
    status: answer,
    ...(extra.cancel ? { cancel: answer } : {}),
    ...(extra.explain ? { explain: extra.explain } : {}),
  } as unknown as PaymentProvider;
}

const intent = provider('esewa-intent', 'esewa', ['app', 'web'], { cancel: true });
const epay = provider('epay', 'esewa', ['web']);
const khalti = provider('khalti', 'khalti', ['web']);

test("pick: the first provider in the merchant's order with the channel, else the wallet's web one; none for an unknown wallet", () => {
  const providers = createProviders([epay, intent, khalti], () => {});
  assert.deepEqual(providers.pick('web'), { provider: epay, channel: 'web' });
  assert.deepEqual(providers.pick('app'), { provider: intent, channel: 'app' });
  assert.deepEqual(providers.pick('app', 'khalti'), { provider: khalti, channel: 'web' }, 'a phone pays on the web where the wallet has no app channel');
  assert.equal(providers.pick('app', 'imepay'), undefined);
});

test('of: the provider a booking names, the intent service for one that names none, and a clear error for one not configured', () => {
  const providers = createProviders([intent, khalti], () => {});
  assert.equal(providers.of({ provider: 'khalti' }), khalti);
  assert.equal(providers.of({}), intent);
  assert.equal(providers.of({ provider: '' }), intent);
  assert.throws(() => providers.of({ provider: 'epay' }), /^Error: No provider named "epay" is configured, yet a stored booking names it/);
});

test('cancel is undefined where the provider cannot cancel', async () => {
  const providers = createProviders([intent, khalti], () => {});
  assert.deepEqual(await providers.cancel({ provider: 'esewa-intent', booking_id: 'B', correlation_id: 'C' } as never, 'cancel'), { status: 'BOOKED' });
  assert.equal(await providers.cancel({ provider: 'khalti', booking_id: 'B', correlation_id: 'C' } as never, 'cancel'), undefined);
});

/** The refusal a call failing with `error` becomes, and what `onError` was told. */
async function refusalFor(error: unknown, explain?: (e: ServiceError) => Error) {
  const told: Array<{ error: unknown; context: unknown }> = [];
  const failing = provider('khalti', 'khalti', ['web'], { fail: error, ...(explain ? { explain } : {}) });
  const providers = createProviders([failing], (e, context) => void told.push({ error: e, context }));
  const thrown = await providers.book(failing, {} as never).then(() => assert.fail('the call failed'), (e: unknown) => e);
  return { thrown, told };
}

test('a timeout is IP-504 and a refusal the browser can act on passes through, neither told to onError', async () => {
  const late = await refusalFor(new ServiceError('book', 'timeout', 'IP-504', undefined, 'late'));
  assert.ok(late.thrown instanceof Refusal && late.thrown.code === 'IP-504');
  assert.deepEqual(late.told, []);
  const processed = await refusalFor(new ServiceError('status', 'rejected', 'IP-410', 409, 'Booking already processed.'));
  assert.ok(processed.thrown instanceof Refusal && processed.thrown.code === 'IP-410' && processed.thrown.message === 'Booking already processed.');
  assert.deepEqual(processed.told, []);
});

test("the merchant's set-up fault is IP-501 to the browser and explained to onError; the service's trouble is IP-502", async () => {
  const fix = new Error('Set KHALTI_SECRET_KEY to the live key.');
  for (const fault of [new ServiceError('book', 'rejected', 'IP-400', 401, 'Invalid signature'), new ServiceError('book', 'rejected', 'IP-401', 401, 'Unknown merchant'), new ServiceError('book', 'unavailable', 'IP-502', 404, 'HTML page')]) {
    const { thrown, told } = await refusalFor(fault, () => fix);
    assert.ok(thrown instanceof Refusal && thrown.code === 'IP-501', fault.message);
    assert.deepEqual(told, [{ error: fix, context: { route: 'book', wallet: 'khalti', provider: 'khalti' } }]);
  }
  for (const trouble of [new ServiceError('book', 'unavailable', 'IP-502', 503, 'down'), new ServiceError('book', 'unavailable', 'IP-502', 429, 'slow down'), new ServiceError('book', 'unavailable', 'IP-502', undefined, 'ECONNREFUSED')]) {
    const { thrown, told } = await refusalFor(trouble);
    assert.ok(thrown instanceof Refusal && thrown.code === 'IP-502' && thrown.message === 'The payment service could not process this request.', trouble.message);
    assert.equal(told[0]?.error, trouble, 'told to onError as it is');
  }
  const odd = await refusalFor(new ServiceError('book', 'rejected', 'IP-999', 500, 'odd'));
  assert.ok(odd.thrown instanceof Refusal && odd.thrown.message === 'The payment service could not process this request (code IP-999).');
  const bug = new TypeError('a bug in the adapter');
  assert.equal((await refusalFor(bug)).thrown, bug, 'an error that is no ServiceError passes unchanged');
});
