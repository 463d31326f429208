/**
 * The reference docs against the code they describe, in both directions: every attribute, property,
 * event, part, custom property and code the code declares is documented, and everything documented
 * exists. The element's API is read from the class itself (its declared reactive properties), not
 * from a list kept here, so a new or removed attribute fails this test until the docs follow.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WalletPayButton } from '../../src/element/wallet-pay-button.js';
import { CODES, HTTP_STATUS_OF_CODE } from '../../src/protocol/contract.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The cells of each row of the first table after `heading` (a line such as `## Attributes`). */
function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  assert.notEqual(start, -1, `the heading "${heading}" exists`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,6} /.test(line)) break;
    if (line.startsWith('|')) {
      inTable = true;
      // `\|` inside a cell is a literal bar, not a column boundary.
      rows.push(line.slice(1, line.endsWith('|') ? -1 : undefined).split(/(?<!\\)\|/).map((cell) => cell.trim()));
    } else if (inTable) {
      break;
    }
  }
  assert.ok(rows.length > 2, `a table follows "${heading}"`);
  // The header and the |---| line.
  return rows.slice(2);
}

/** The name written in backticks at the start of a cell: `` `order-id` `` gives `order-id`. */
function nameIn(cell: string): string {
  const match = /^`([^`]+)`/.exec(cell);
  assert.ok(match, `"${cell}" starts with a name in backticks`);
  return match[1]!;
}

function sameSet(documented: string[], declared: string[], what: string): void {
  const missing = declared.filter((name) => !documented.includes(name));
  const stale = documented.filter((name) => !declared.includes(name));
  assert.deepEqual(missing, [], `every ${what} the code declares is documented`);
  assert.deepEqual(stale, [], `every documented ${what} exists in the code`);
  assert.equal(new Set(documented).size, documented.length, `each ${what} is documented once`);
}

/** The element's reactive properties and the attribute each observes (none for `attribute: false`). */
function declaredProperties(): { property: string; attribute: string | null }[] {
  // Reading observedAttributes finalizes the class, which fills elementProperties.
  const observed = (WalletPayButton as unknown as { observedAttributes: string[] }).observedAttributes;
  const declared = [...WalletPayButton.elementProperties].map(([key, options]) => {
    const property = String(key);
    const attribute = options.attribute === false ? null : typeof options.attribute === 'string' ? options.attribute : property.toLowerCase();
    return { property, attribute };
  });
  assert.deepEqual(declared.flatMap(({ attribute }) => (attribute ? [attribute] : [])).sort(), [...observed].sort());
  return declared;
}

const ELEMENT_MD = read('docs/element.md');

test('docs/element.md: the attribute table lists exactly the attributes the element observes, with their properties', () => {
  const rows = tableAfter(ELEMENT_MD, '## Attributes');
  const declared = declaredProperties().filter((item) => item.attribute !== null);
  assert.ok(declared.some((item) => item.attribute === 'allowed-hosts'), 'the element declares attributes');
  sameSet(rows.map((row) => nameIn(row[0]!)), declared.map((item) => item.attribute!), 'attribute');
  for (const row of rows) {
    const attribute = nameIn(row[0]!);
    const { property } = declared.find((item) => item.attribute === attribute)!;
    const documented = nameIn(row[1]!);
    // A private reactive field that mirrors a native attribute (`lang`) is documented as the native property.
    if (row[1]!.includes('(native)')) assert.equal(documented, attribute, `${attribute}: a native property has the attribute's name`);
    else assert.equal(documented, property, `${attribute}: the property is ${property}`);
  }
});

test('docs/element.md: each attribute\'s "Unset" column says what a new element reads', () => {
  const rows = tableAfter(ELEMENT_MD, '## Attributes');
  const declared = declaredProperties();
  // A fresh element, as a page creates it (Lit's Node build gives the class a minimal DOM).
  const element = new WalletPayButton() as unknown as Record<string, unknown>;
  for (const row of rows) {
    const attribute = nameIn(row[0]!);
    const { property } = declared.find((item) => item.attribute === attribute)!;
    const value = element[property];
    const cell = row[3]!;
    if (value === undefined) {
      assert.match(cell, /^unset\b/, `${attribute}: ${property} reads undefined on a new element, so the column must say "unset", not a value`);
    } else {
      assert.ok(cell.includes(`\`${String(value)}\``), `${attribute}: ${property} reads ${JSON.stringify(value)} on a new element; the column says "${cell}"`);
    }
  }
});

test('docs/element.md: the property table lists the element\'s object properties, and each exists', () => {
  const rows = tableAfter(ELEMENT_MD, '## Properties');
  const documented = rows.map((row) => nameIn(row[0]!));
  const objectProperties = declaredProperties().filter((item) => item.attribute === null).map((item) => item.property);
  const missing = objectProperties.filter((name) => !documented.includes(name));
  assert.deepEqual(missing, [], 'every property without an attribute is documented');
  for (const name of documented) assert.ok(name in WalletPayButton.prototype, `${name} is a property of the element`);
});

test('docs/element.md: events, parts and custom properties match the element\'s JSDoc', () => {
  const source = read('src/element/wallet-pay-button.ts');
  const tag = (name: string) => [...source.matchAll(new RegExp(`@${name}\\s+([\\w-]+)`, 'g'))].map((match) => match[1]!);
  assert.ok(tag('fires').includes('wallet-pay-webview'), 'the source declares its events');
  sameSet(tableAfter(ELEMENT_MD, '## Events').map((row) => nameIn(row[0]!)), tag('fires'), 'event');
  sameSet(tableAfter(ELEMENT_MD, '## Parts').map((row) => nameIn(row[0]!)), tag('csspart'), 'part');
  sameSet(tableAfter(ELEMENT_MD, '## Custom properties').map((row) => nameIn(row[0]!)), tag('cssprop'), 'custom property');
});

test('docs/contract.md: the codes table is CODES, each with its HTTP_STATUS_OF_CODE', () => {
  const rows = tableAfter(read('docs/contract.md'), '## The codes');
  const codes = Object.values(CODES) as string[];
  assert.ok(codes.includes('IP-501') && codes.includes('IP-412'));
  sameSet(rows.map((row) => nameIn(row[0]!)), codes, 'code');
  for (const row of rows) {
    const code = nameIn(row[0]!) as keyof typeof HTTP_STATUS_OF_CODE;
    assert.equal(Number(row[1]), HTTP_STATUS_OF_CODE[code], `${code} is sent with HTTP ${HTTP_STATUS_OF_CODE[code]}`);
  }
});

test('docs/sandbox.md: every code the sandbox documents is a code of the contract, with its HTTP status', () => {
  const rows = tableAfter(read('docs/sandbox.md'), '## Codes');
  for (const row of rows) {
    const code = nameIn(row[0]!) as keyof typeof HTTP_STATUS_OF_CODE;
    assert.ok(code in HTTP_STATUS_OF_CODE, `${code} is in CODES`);
    assert.equal(Number(row[1]), HTTP_STATUS_OF_CODE[code], `${code} is sent with HTTP ${HTTP_STATUS_OF_CODE[code]}`);
  }
});

test('no doc gives an allowed-hosts value for the local sandbox without its links host', () => {
  const service = `${SANDBOX_DEFAULTS.host}:${SANDBOX_DEFAULTS.cliPort}`;
  // What the sandbox's banner prints with the default ports (the banner itself is tested with the CLI).
  const full = `${service} ${SANDBOX_DEFAULTS.host}:${SANDBOX_DEFAULTS.cliLinksPort}`;
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const wrong: string[] = [];
  let right = 0;
  for (const file of files) {
    // A table row is a unit of its own; elsewhere a paragraph is (a value may wrap onto the next line).
    const units = read(file).split(/\n\s*\n/).flatMap((block) => (block.trimStart().startsWith('|') ? block.split('\n') : [block]));
    for (const unit of units) {
      const text = unit.replace(/\s+/g, ' ');
      if (!/allowed-hosts|allowedHosts/.test(text) || !text.includes(service)) continue;
      if (text.includes(full)) right++;
      else wrong.push(`${file}: ${text.slice(0, 160)}`);
    }
  }
  assert.deepEqual(wrong, [], `the sandbox's allowed-hosts value is "${full}"`);
  assert.ok(right > 0, 'the docs do give the value somewhere');
});
