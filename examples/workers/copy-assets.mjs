// Copies the element's browser files (dist/cdn of the package) to public/wallet-pay-button/.
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const cdn = join(dirname(createRequire(import.meta.url).resolve('wallet-pay-button/package.json')), 'dist', 'cdn');
cpSync(cdn, new URL('./public/wallet-pay-button/', import.meta.url).pathname, { recursive: true });
