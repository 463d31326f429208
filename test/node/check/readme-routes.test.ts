/** The README route table: generated from contract.json's x-routes, replaced between its markers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { contractRoutesOf, routesBlock, ROUTE_READMES, ROUTES_END, ROUTES_START, withRoutes } from '../../../src/check/readme-routes.js';

const ROUTES = [
  { method: 'POST', route: '/book', provider: 'both', summary: 'Books | answers ids.' },
  { method: 'GET', route: '/return', provider: 'epay', summary: 'The return.' },
  { method: 'POST', route: '/callback', provider: 'intent', summary: 'The callback.' },
  { method: 'GET', route: '/x', provider: 'khalti', summary: 'A mode the table does not know.' },
];

test('the table has a row per route under the prefix, its mode named, a "|" in a summary escaped', () => {
  assert.equal(
    routesBlock(ROUTES, '/pay'),
    [
      ROUTES_START,
      '| Route | Mode | What it is |',
      '|---|---|---|',
      '| `POST /pay/book` | both | Books \\| answers ids. |',
      '| `GET /pay/return` | `PROVIDER=epay` | The return. |',
      '| `POST /pay/callback` | intent | The callback. |',
      '| `GET /pay/x` | khalti | A mode the table does not know. |',
      ROUTES_END,
    ].join('\n'),
  );
  assert.match(routesBlock(ROUTES.slice(0, 1)), /`POST \/api\/pay\/book`/, 'the examples\' prefix by default');
});

test('withRoutes replaces the table between its markers and keeps the rest; without markers it throws', () => {
  const readme = `# Shop\n\n${ROUTES_START}\nold table\n${ROUTES_END}\n\nMore.\n`;
  assert.equal(withRoutes(readme, 'NEW'), '# Shop\n\nNEW\n\nMore.\n');
  assert.throws(() => withRoutes('# Shop\n', 'NEW'), { message: 'the README has no generated routes table (its markers are missing)' });
  assert.throws(() => withRoutes(`${ROUTES_END}\n${ROUTES_START}`, 'NEW'), /markers are missing/, 'markers in the wrong order');
});

test("contractRoutesOf reads x-routes; the shipped contract's routes are in each README as generated", () => {
  assert.deepEqual(contractRoutesOf(JSON.stringify({ 'x-routes': ROUTES })), ROUTES);
  const routes = contractRoutesOf(readFileSync(new URL('../../../contract.json', import.meta.url), 'utf8'));
  assert.ok(routes.some((r) => r.route === '/book'));
  for (const path of ROUTE_READMES) {
    const readme = readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
    assert.equal(withRoutes(readme, routesBlock(routes)), readme, `${path} is current (npx tsx src/check/readme-routes.ts)`);
  }
});
