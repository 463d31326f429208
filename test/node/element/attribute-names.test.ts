import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ELEMENT_ATTRIBUTES, isRenderedAttribute } from '../../../src/element/attribute-names.js';

test("a server render writes the element's attributes, a few global ones, data-* and aria-*", () => {
  for (const name of [...ELEMENT_ATTRIBUTES, 'id', 'class', 'dir', 'hidden', 'title', 'slot', 'data-sku', 'aria-describedby']) assert.ok(isRenderedAttribute(name), name);
  assert.equal(new Set(ELEMENT_ATTRIBUTES).size, ELEMENT_ATTRIBUTES.length, 'each once');
});

test('anything a template could smuggle in is refused', () => {
  for (const name of ['onclick', 'style', 'src', 'href', 'data-', 'aria-', 'data-X', 'data-a b', 'DATA-sku', 'endpoint ', 'formaction']) assert.ok(!isRenderedAttribute(name), name);
});
