import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresOutage } from '../../../src/server/postgres-errors.js';
import { StoreUnavailableError } from '../../../src/server/store-errors.js';

const driverError = (message: string, code?: string) => Object.assign(new Error(message), code === undefined ? {} : { code });

test('a statement or lock timeout, or a connect timeout, is a deadline outage keeping its cause', () => {
  for (const error of [driverError('canceling statement due to statement timeout', '57014'), driverError('lock not available', '55P03'), driverError('timeout exceeded when trying to connect')]) {
    const outage = postgresOutage(error);
    assert.ok(outage instanceof StoreUnavailableError, error.message);
    assert.equal(outage.reason, 'deadline');
    assert.equal(outage.cause, error);
    assert.match(outage.message, /^The payment store's database gave up on a statement: /);
  }
});

test("a server out of reach, shutting down or out of connections, or the driver's closed connection, is unreachable", () => {
  const errors = [
    driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    driverError('terminating connection due to administrator command', '57P01'),
    driverError('sorry, too many clients already', '53300'),
    driverError('connection failure', '08006'),
    driverError('Connection terminated unexpectedly'),
    driverError('Cannot use a pool after calling end on the pool'),
  ];
  for (const error of errors) {
    const outage = postgresOutage(error);
    assert.equal(outage?.reason, 'unreachable', error.message);
    assert.match(outage!.message, /^The payment store's database cannot be reached: /);
  }
});

test('any other error is not an outage; an outage already read is passed on as it is', () => {
  assert.equal(postgresOutage(driverError('duplicate key value violates unique constraint', '23505')), undefined);
  assert.equal(postgresOutage(driverError('syntax error at or near "SELEC"', '42601')), undefined);
  assert.equal(postgresOutage('ECONNREFUSED'), undefined, 'not an Error');
  const already = new StoreUnavailableError('unreachable', 'gone');
  assert.equal(postgresOutage(already), already);
});
