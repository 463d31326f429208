/**
 * The reference docs against the code they describe, in both directions: every attribute, property,
 * event, part, custom property and code the code declares is documented, and everything documented
 * exists. The element's API is read from the class itself (its declared reactive properties), not
 * from a list kept here, so a new or removed attribute fails this test until the docs follow.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** README.md and every docs/*.md: what a merchant reads, from the repository or from the package. */
function allDocs(): { file: string; text: string }[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
  return files.map((file) => ({ file, text: read(file) }));
}

/** The prose of a document: fenced code blocks and inline code removed. */
function prose(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
}

test('README.md: the two set-up commands first, then what it is and the quick start; npm install within 30 lines', () => {
  const readme = read('README.md');
  const lines = readme.split('\n');
  const lineOf = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line)) + 1;
  assert.ok(lineOf(/^npm ci && npm run dev\b/) > 0 && lineOf(/^npm ci && npm run dev\b/) <= 6, 'npm ci && npm run dev in the first lines');
  assert.ok(lineOf(/^npm ci && npm test\b/) > 0 && lineOf(/^npm ci && npm test\b/) <= 6, 'npm ci && npm test in the first lines');
  const install = lineOf(/^npm install wallet-pay-button\b/);
  assert.ok(install > 0 && install <= 30, `a merchant reaches npm install within the first 30 lines (line ${install})`);
  const quickStart = lineOf(/^## Quick start$/);
  const page = lineOf(/^### The page$/);
  const server = lineOf(/^### The server\b/);
  const sandbox = lineOf(/^### The sandbox$/);
  assert.ok(quickStart > 0 && quickStart < page && page < server && server < sandbox, 'the quick start gives the page, the server and the sandbox, in that order');
  assert.ok(lineOf(/wallet-pay-button.*web component/) < quickStart, 'what it is comes before the quick start');
  // Contributor material (the test suite's installs, byte counts) comes after everything a merchant needs.
  const contributors = lineOf(/^## Working on this repository$/);
  assert.ok(contributors > sandbox, 'the contributors\' section follows the quick start');
  const before = lines.slice(0, contributors - 1).join('\n');
  assert.doesNotMatch(before, /apt-get|firefox-esr|webkit2gtk|\b\d{1,3},\d{3} bytes\b|bytes gzip/, 'no install notes of the test suite or byte counts before the contributors\' section');
});

test('README.md: the server snippet says it is TypeScript and what its undeclared names stand for', () => {
  const readme = read('README.md');
  const match = /### The server[^\n]*\n([\s\S]*?)```ts\n([\s\S]*?)```/.exec(readme);
  assert.ok(match, 'the server section has a ts snippet');
  const [, lead, code] = match;
  assert.match(lead!, /TypeScript/, 'the text before the snippet says it is TypeScript');
  // Every free name the snippet uses without importing or declaring it is named before it.
  for (const name of ['db', 'sessions']) {
    if (!new RegExp(`\\b${name}\\.`).test(code!)) continue;
    assert.doesNotMatch(code!, new RegExp(`\\b(?:const|let|var)\\s+${name}\\b|\\bimport\\s[^;]*\\b${name}\\b[^;]*\\bfrom\\b`), `${name} is not declared in the snippet`);
    assert.match(lead!, new RegExp(`\`${name}\``), `the text before the snippet says what \`${name}\` is`);
  }
});

test('no doc speaks of issue or pull-request numbers', () => {
  const found: string[] = [];
  for (const { file, text } of allDocs()) {
    text.split('\n').forEach((line, index) => {
      if (/\b(?:issues?|pull requests?|PRs?|tickets?)\s+#?\d+/i.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
    // `#14` in prose (a colour such as `#1a1a1a` lives in code, which is left out).
    prose(text).split('\n').forEach((line, index) => {
      if (/(?:^|[\s(,])#\d+\b/.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

/** Documents the README links before they are written; each is checked once it exists. */
const PENDING_DOCS = ['docs/backends.md', 'docs/runtimes.md'].filter((path) => !existsSync(join(ROOT, path)));

/** Paths of the repository a document names, in code spans or links. */
function namedPaths(markdown: string): string[] {
  const paths = new Set<string>();
  for (const match of markdown.matchAll(/(?<![\w./-])((?:src|scripts|test|bench|demo|bin|docs)\/(?:[\w.*-]|\[\w+\]|\/)*(?:[\w*/]|\[\w+\]))/g)) paths.add(match[1]!);
  return [...paths];
}

test('every file or folder of the repository the docs name exists', () => {
  const missing: string[] = [];
  let checked = 0;
  for (const { file, text } of [...allDocs(), { file: 'CONTRIBUTING.md', text: read('CONTRIBUTING.md') }]) {
    for (const path of namedPaths(text)) {
      // Patterns (`test/browser/...`, `handoff-*.min.js`) name no one file.
      if (/\.\.\.|\*|\[/.test(path)) continue;
      checked++;
      if (PENDING_DOCS.includes(path) && file === 'README.md') continue;
      if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`);
    }
  }
  // A guard that the path reader reads at all (the merchant docs name fewer paths since the contributors' guide left docs/).
  assert.ok(checked > 10, `the docs name files (${checked})`);
  assert.deepEqual(missing, []);
});

/** The names a public entry exports (read from its source: values and types alike). */
function exportedByEntries(): Set<string> {
  const entries = ['src/index.ts', 'src/define.ts', 'src/react.ts', 'src/server/index.ts', 'src/server/node.ts', 'src/server/postgres.ts', 'src/server/mysql.ts', 'src/server/redis.ts', 'src/server/store-suite.ts', 'src/server/providers.ts', 'src/server/provider-suite.ts', 'src/sandbox/index.ts', 'src/protocol/index.ts', 'src/check/index.ts', 'src/testing/index.ts'];
  const names = new Set<string>();
  for (const entry of entries) {
    const source = read(entry);
    for (const block of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
      for (const item of block[1]!.split(',')) {
        const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
        if (name) names.add(name);
      }
    }
    for (const match of source.matchAll(/export\s+(?:declare\s+)?(?:async\s+)?(?:const|function|class|interface|type|enum)\s+(\w+)/g)) names.add(match[1]!);
  }
  return names;
}

/** Every name a module of src/ exports, with the module. */
function exportedBySources(): Map<string, string> {
  const names = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        for (const match of read(path).matchAll(/export\s+(?:declare\s+)?(?:async\s+)?(?:const|function|class|interface|type|enum)\s+(\w+)/g)) names.set(match[1]!, path);
      }
    }
  };
  walk('src');
  return names;
}

test('every constant, function, class or type of the code that the docs name is exported by an entry of the package', () => {
  const publicNames = exportedByEntries();
  assert.ok(publicNames.has('createPaymentHandler') && publicNames.has('CODES') && publicNames.has('BookRequest'), 'the entries were read');
  const declared = exportedBySources();
  const internal: string[] = [];
  for (const { file, text } of allDocs()) {
    for (const match of text.matchAll(/`([A-Za-z_]\w*)(\(\)|\()?/g)) {
      const name = match[1]!;
      // Constants and types by their shape; a camelCase name only when it is called (a field may share it).
      if (/^[a-z]/.test(name) && !match[2]) continue;
      if (declared.has(name) && !publicNames.has(name)) internal.push(`${file}: \`${name}\` (only in ${declared.get(name)})`);
    }
  }
  assert.deepEqual([...new Set(internal)], [], 'a merchant can import what the docs name');
});

/** The member names of a TypeScript type literal or interface body, `?` kept on optional ones. */
function membersOf(body: string): string[] {
  const members: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of body) {
    if ('{(<['.includes(char)) depth++;
    if ('})>]'.includes(char)) depth--;
    if (depth === 0 && (char === ';' || char === '\n' || char === ',')) {
      members.push(current);
      current = '';
    } else current += char;
  }
  members.push(current);
  return members
    .map((member) => member.replace(/\/\*\*[\s\S]*?\*\//g, '').trim())
    .flatMap((member) => {
      const match = /^(\w+)(\??)\s*:/.exec(member) ?? /^(\w+)(\??)$/.exec(member);
      return match ? [`${match[1]}${match[2]}`] : [];
    });
}

/** The body between the braces that open right after `start` in `source`. */
function bracedAfter(source: string, start: RegExp): string {
  const match = start.exec(source);
  assert.ok(match, `${start} is in the source`);
  const open = source.indexOf('{', match.index + match[0].length - 1);
  let depth = 0;
  for (let index = open; index < source.length; index++) {
    if (source[index] === '{') depth++;
    if (source[index] === '}' && --depth === 0) return source.slice(open + 1, index);
  }
  throw new Error(`unbalanced braces after ${start}`);
}

/** The top-level member names of the first `{ … }` in a doc's text, `?` kept. */
function documentedMembers(text: string): string[] {
  const start = text.indexOf('{');
  assert.notEqual(start, -1, `"${text}" gives an object`);
  return membersOf(bracedAfter(text.replace(/\\\|/g, '|').replace(/"/g, ''), /^[^{]*\{/).replace(/'[^']*'/g, "''"));
}

const CONTRACT = read('src/protocol/contract.ts');

test('docs/element.md: each event\'s detail lists exactly the members of its type in the flow\'s event map', () => {
  const map = bracedAfter(read('src/core/flow/state.ts'), /export interface FlowEventMap\s*\{/);
  const rows = tableAfter(ELEMENT_MD, '## Events');
  assert.equal(rows.length, 14);
  for (const row of rows) {
    const type = nameIn(row[0]!).replace(/^wallet-pay-/, '');
    const declared = membersOf(bracedAfter(map, new RegExp(`(?:^|\\n)\\s*${type}:\\s*\\{`)));
    assert.ok(declared.length > 0, `${type} has members`);
    const cell = /`(\{[^`]*\})`/.exec(row.at(-1)!)?.[1];
    assert.ok(cell, `${type}: the detail column gives the object`);
    assert.deepEqual(documentedMembers(cell).sort(), declared.sort(), `wallet-pay-${type}: the detail documented is the detail fired`);
  }
});

test('the request bodies in docs/contract.md and docs/server.md are the contract\'s request types', () => {
  const requests = { book: 'BookRequest', status: 'StatusRequest', cancel: 'CancelRequest' } as const;
  const contract = tableAfter(read('docs/contract.md'), '## Requests');
  const server = read('docs/server.md');
  for (const [route, type] of Object.entries(requests)) {
    const declared = membersOf(bracedAfter(CONTRACT, new RegExp(`export interface ${type}\\s*\\{`))).sort();
    assert.ok(declared.length >= 2, `${type} has members`);
    const row = contract.find((cells) => cells[0]!.includes(`/${route}\``));
    assert.ok(row, `docs/contract.md has a row for /${route}`);
    const cell = /`(\{[^`]*\})`/.exec(row[1]!)?.[1];
    assert.ok(cell, `docs/contract.md: /${route} gives its body`);
    assert.deepEqual(documentedMembers(cell).sort(), declared, `docs/contract.md: the /${route} body is ${type}`);
    const section = server.split(/\n(?=#{2,4} )/).find((part) => new RegExp(`^#{2,4} .*\`POST \\.\\.\\./${route}\``).test(part));
    assert.ok(section, `docs/server.md has a section for POST .../${route}`);
    const body = /Body[^`]*`(\{[^`]*\})`/.exec(section);
    if (body) assert.deepEqual(documentedMembers(body[1]!).sort(), declared, `docs/server.md: the /${route} body is ${type}`);
    else assert.ok(route !== 'book', 'docs/server.md gives the /book body');
  }
});

test('README.md is at most 12 KB and docs/*.md at most 150 KB in all: a merchant reads them in one sitting', () => {
  const bytes = (file: string) => Buffer.byteLength(read(file));
  const readme = bytes('README.md');
  const docs = allDocs().filter(({ file }) => file.startsWith('docs/')).reduce((sum, { file }) => sum + bytes(file), 0);
  assert.ok(readme <= 12_000, `README.md is ${readme} bytes`);
  assert.ok(docs <= 150_000, `docs/*.md are ${docs} bytes`);
});

test('every doc opens by saying what its reader will be able to do', () => {
  for (const { file, text } of [...allDocs(), { file: 'CHANGELOG.md', text: read('CHANGELOG.md') }]) {
    if (file === 'README.md') {
      // The README opens with its two set-up commands; the paragraph after them says it.
      const after = text.slice(text.indexOf('```', text.indexOf('```') + 3) + 3).trim().split(/\n\s*\n/)[0]!;
      assert.match(after.replace(/\s+/g, ' '), /after this page you can /, 'README.md');
      continue;
    }
    const first = text.split('\n').slice(1).join('\n').trim().split(/\n\s*\n/)[0]!;
    assert.match(first, /^After reading this you will /, `${file} opens with what its reader will be able to do`);
  }
});

test('the release history lives in CHANGELOG.md, one section per release, not in the docs', () => {
  const changelog = read('CHANGELOG.md');
  const releases = [...changelog.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);
  assert.deepEqual(releases, ['Unreleased', '0.1.0']);
  for (const { file, text } of allDocs()) {
    assert.doesNotMatch(text, /^#{1,6} .*\bbefore and after\b/im, `${file}: before-and-after history belongs in CHANGELOG.md`);
  }
});
