import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { RawJsonError, topLevelMemberTexts } from '../../src/sandbox/raw-json.js';

describe('topLevelMemberTexts', () => {
  test('keeps each top-level value as written', () => {
    const text = '{ "amount" : 1000.0, "b":-1.5e3,"s":"a\\"b,}", "o":{"x":[1,{"y":"]"}]}, "t":true, "n":null, "z":0 }';
    assert.deepEqual(Object.fromEntries(topLevelMemberTexts(text)), {
      amount: '1000.0',
      b: '-1.5e3',
      s: '"a\\"b,}"',
      o: '{"x":[1,{"y":"]"}]}',
      t: 'true',
      n: 'null',
      z: '0',
    });
  });

  test('decodes escaped member names', () => {
    assert.deepEqual([...topLevelMemberTexts('{"am\\u006funt":1}').keys()], ['amount']);
  });

  test('an empty object has no members', () => {
    assert.equal(topLevelMemberTexts(' {} ').size, 0);
  });

  test('refuses duplicate keys and non-objects', () => {
    assert.throws(() => topLevelMemberTexts('{"a":1,"a":2}'), (e: unknown) => e instanceof RawJsonError && /"a" appears twice/.test(e.message));
    assert.throws(() => topLevelMemberTexts('[1]'), RawJsonError);
    assert.throws(() => topLevelMemberTexts('{"a":1'), RawJsonError);
    assert.throws(() => topLevelMemberTexts('{"a":"x'), RawJsonError);
  });
});
