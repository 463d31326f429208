/**
 * The element's load state (src/element/load.ts), as Lit's `Task` keeps a task's: its status and its
 * value or failure. A new load starts only when none was asked for or the last one failed, so no call
 * is ever stale (no call id).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkError } from '../../../src/element/chunk.js';
import { Load, LoadStatus } from '../../../src/element/load.js';

/** A load the test settles by hand. */
function held<T>(): { load: () => Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void; calls: () => number } {
  let calls = 0;
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  return {
    load: () => {
      calls++;
      return new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
    },
    resolve: (value) => resolve(value),
    reject: (error) => reject(error),
    calls: () => calls,
  };
}

test('initial, pending while under way, complete with its value; a second ask shares the load', async () => {
  const load = new Load<number>();
  assert.equal(load.status, 'initial');
  const chunk = held<number>();
  const first = load.ask(chunk.load);
  assert.equal(load.status, 'pending');
  assert.equal(load.ask(chunk.load), first);
  chunk.resolve(7);
  assert.equal(await first, 7);
  assert.deepEqual([load.status, load.value, chunk.calls()], ['complete', 7, 1]);
  assert.equal(await load.ask(chunk.load), 7);
  assert.equal(chunk.calls(), 1);
});

test('a failure is an error with its reason; the next ask loads again', async () => {
  const load = new Load<number>();
  await assert.rejects(load.ask(() => Promise.reject(new ChunkError('reload', undefined, 'held failed'))));
  assert.deepEqual([load.status, load.failure], ['error', 'reload']);
  await assert.rejects(load.ask(() => Promise.reject(new TypeError('offline'))));
  assert.deepEqual([load.status, load.failure], ['error', 'network']);
  assert.equal(await load.ask(() => Promise.resolve(3)), 3);
  assert.equal(load.status, 'complete');
});

test('a load under way or done is shared; only a failed one is asked for again', async () => {
  const load = new Load<string>();
  const first = held<string>();
  const asked = load.ask(first.load);
  assert.equal(load.ask(held<string>().load), asked, 'under way: shared');
  first.reject(new ChunkError('network', undefined, 'offline'));
  await assert.rejects(asked);
  assert.deepEqual([load.status, load.failure], ['error', 'network']);
  const second = held<string>();
  const again = load.ask(second.load);
  assert.notEqual(again, asked);
  assert.equal(load.status, 'pending');
  second.resolve('in');
  assert.equal(await again, 'in');
  assert.equal(load.ask(held<string>().load), again, 'done: shared');
  assert.equal(second.calls(), 1);
});

test('the status is one of LoadStatus, as Task\'s TaskStatus', () => {
  assert.deepEqual(LoadStatus, { INITIAL: 'initial', PENDING: 'pending', COMPLETE: 'complete', ERROR: 'error' });
  assert.equal(new Load<number>().status, LoadStatus.INITIAL);
});

/** A host that counts the updates it is asked for and reads the status at each. */
function countingHost() {
  const seen: string[] = [];
  let load: Load<number> | undefined;
  const host = {
    requestUpdate: () => seen.push(load!.status),
    addController: () => {},
    removeController: () => {},
    updateComplete: Promise.resolve(true),
  } as unknown as ConstructorParameters<typeof Load<number>>[0];
  return { seen, use: (l: Load<number>) => (load = l), host };
}

test('the host is asked to update when a load starts and when it settles, not for a shared ask', async () => {
  const counted = countingHost();
  const load = counted.use(new Load<number>(counted.host));
  const chunk = held<number>();
  const asked = load.ask(chunk.load);
  assert.deepEqual(counted.seen, [LoadStatus.PENDING]);
  load.ask(held<number>().load);
  assert.deepEqual(counted.seen, [LoadStatus.PENDING], 'a shared ask asks for nothing');
  chunk.resolve(2);
  await asked;
  assert.deepEqual(counted.seen, [LoadStatus.PENDING, LoadStatus.COMPLETE]);
  assert.equal(load.value, 2);
});

test('taskComplete is the load under way: a press made meanwhile awaits it; it rejects when the load failed', async () => {
  const load = new Load<number>();
  const current = () => load.taskComplete;
  assert.ok(current() === undefined, 'nothing asked yet');
  const chunk = held<number>();
  const asked = load.ask(chunk.load);
  assert.equal(load.taskComplete, asked);
  const pressed = load.taskComplete!.then((value) => `pressed with ${value}`);
  chunk.resolve(5);
  assert.equal(await pressed, 'pressed with 5');

  const failing = held<number>();
  const other = new Load<number>();
  const again = other.ask(failing.load);
  failing.reject(new ChunkError('network', undefined, 'dropped'));
  await assert.rejects(other.taskComplete!, ChunkError);
  await assert.rejects(again);
  assert.deepEqual([other.status, other.failure], [LoadStatus.ERROR, 'network']);
});
