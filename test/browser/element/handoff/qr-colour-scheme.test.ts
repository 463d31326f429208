import { emulateMedia } from '@web/test-runner-commands';
import { expectReadableUnderThemedPage, mountHandoff } from './support.js';

// Chromium only (web-test-runner.config.mjs): the colour scheme is emulated, which Firefox's and
// WebKit's drivers cannot do. The variants under the default scheme run in every engine (qr.test.ts).
afterEach(async () => {
  await emulateMedia({ colorScheme: 'light' });
});

describe('hand-off QR code under both colour schemes', () => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const variant of ['dark', 'light', 'outline', 'auto']) {
      it(`stays black on white, full size and readable: variant ${variant}, ${scheme} colour scheme`, async () => {
        await emulateMedia({ colorScheme: scheme });
        await expectReadableUnderThemedPage(await mountHandoff({ attrs: { variant } }));
      });
    }
  }

});
