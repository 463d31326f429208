// Writes contract.json, the OpenAPI 3.1 document of the book proxy contract, from src/check/openapi.ts
// (itself built from src/protocol/contract.ts). Run: npx tsx scripts/contract-json.ts
// test/node/scripts/contract-json.test.ts fails when the file and the source differ.
import { writeFileSync } from 'node:fs';
import { buildContractDocument } from '../src/check/openapi.js';

export const CONTRACT_JSON = new URL('../contract.json', import.meta.url);

/** The file's exact text. */
export function contractJsonText(): string {
  return `${JSON.stringify(buildContractDocument(), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/scripts\//, '/scripts/'))) {
  writeFileSync(CONTRACT_JSON, contractJsonText());
  console.log('contract.json written');
}
