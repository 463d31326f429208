/**
 * The route table of the example backends' READMEs, generated from contract.json's `x-routes` (every
 * route and page a backend owes), so a README cannot drift from the contract. Run
 * `npx tsx src/check/readme-routes.ts` to rewrite the tables; a test compares them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One route or page of contract.json's `x-routes`. */
export interface ContractRoute {
  method: string;
  route: string;
  provider: string;
  summary: string;
}

/** The markers around the generated table. */
export const ROUTES_START = '<!-- routes: generated from contract.json; a test compares them -->';
export const ROUTES_END = '<!-- /routes -->';

const MODES: Record<string, string> = { both: 'both', intent: 'intent', epay: '`PROVIDER=epay`', 'epay,khalti': '`PROVIDER=epay`, `khalti`' };

/** The table, markers included, for routes under `prefix` (the examples' `/api/pay`). */
export function routesBlock(routes: readonly ContractRoute[], prefix = '/api/pay'): string {
  const rows = routes.map((r) => `| \`${r.method} ${prefix}${r.route}\` | ${MODES[r.provider] ?? r.provider} | ${r.summary.replaceAll('|', '\\|')} |`);
  return [ROUTES_START, '| Route | Mode | What it is |', '|---|---|---|', ...rows, ROUTES_END].join('\n');
}

/** `readme` with its generated table replaced by `block`; throws when the markers are missing. */
export function withRoutes(readme: string, block: string): string {
  const start = readme.indexOf(ROUTES_START);
  const end = readme.indexOf(ROUTES_END);
  if (start < 0 || end < start) throw new Error('the README has no generated routes table (its markers are missing)');
  return `${readme.slice(0, start)}${block}${readme.slice(end + ROUTES_END.length)}`;
}

/** The `x-routes` of a contract.json text. */
export function contractRoutesOf(contractJson: string): ContractRoute[] {
  return (JSON.parse(contractJson) as { 'x-routes': ContractRoute[] })['x-routes'];
}

const ROOT = new URL('../../', import.meta.url);
/** The READMEs that carry the table. */
export const ROUTE_READMES = ['examples/backends/php/README.md', 'examples/backends/python/README.md'] as const;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const block = routesBlock(contractRoutesOf(readFileSync(new URL('contract.json', ROOT), 'utf8')));
  for (const path of ROUTE_READMES) writeFileSync(new URL(path, ROOT), withRoutes(readFileSync(new URL(path, ROOT), 'utf8'), block));
  console.log(`routes written to ${ROUTE_READMES.join(', ')}`);
}
