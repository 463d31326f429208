import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJsonError, readRawJsonObject } from '../../../src/protocol/raw-json.js';

const raws = (text: string) => Object.fromEntries([...readRawJsonObject(text)].map(([name, member]) => [name, member.raw]));

test('each top-level member keeps its source text beside its parsed value', () => {
  const members = readRawJsonObject('{ "amount" : 1000.0, "status":"SUCCESS" ,"n":-1.50e2 }');
  assert.deepEqual(members.get('amount'), { value: 1000, raw: '1000.0' });
  assert.deepEqual(members.get('status'), { value: 'SUCCESS', raw: '"SUCCESS"' });
  assert.deepEqual(members.get('n'), { value: -150, raw: '-1.50e2' });
  assert.deepEqual([...members.keys()], ['amount', 'status', 'n'], 'in the order written');
});

test('nested values, strings with quotes, braces and escapes, and literals are read whole', () => {
  assert.deepEqual(raws('{"o":{"a":[1,{"b":"}"}]},"s":"say \\"hi\\" \\\\ {[","t":true,"f":false,"z":null,"e":{},"l":[]}'), {
    o: '{"a":[1,{"b":"}"}]}',
    s: '"say \\"hi\\" \\\\ {["',
    t: 'true',
    f: 'false',
    z: 'null',
    e: '{}',
    l: '[]',
  });
  assert.deepEqual(raws(' \n\t{ } '), {}, 'an empty object has no members');
  assert.deepEqual(raws('{"\\u0061":1}'), { a: '1' }, 'a name is read as JSON reads it');
});

test('malformed JSON, anything but an object, and a name given twice are refused with their reason', () => {
  const refused = (text: string, reason: string, message: RegExp) =>
    assert.throws(() => readRawJsonObject(text), (error: unknown) => error instanceof RawJsonError && error.reason === reason && message.test(error.message));
  refused('{"amount": 1000.0', 'malformed_json', /^The body is not valid JSON: /);
  refused('', 'malformed_json', /not valid JSON/);
  refused('[1]', 'not_an_object', /^The body must be a JSON object; got an array\.$/);
  refused('null', 'not_an_object', /got null\./);
  refused('"x"', 'not_an_object', /got string\./);
  refused('{"amount":1,"amount":2}', 'duplicate_member', /^The body names the field "amount" more than once\.$/);
  refused('{"a":1,"\\u0061":2}', 'duplicate_member', /"a" more than once/);
});
