// Resolves the Chromium every browser test, e2e suite and benchmark uses, in one place.
// Order: $CHROMIUM_PATH, Debian's /usr/bin/chromium, then Playwright's own download.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Returns the first Chromium executable found, or undefined. */
export async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) {
      throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, but no file is there.`);
    }
    return fromEnv;
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  try {
    const { chromium } = await import('playwright');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright without a downloaded browser: fall through.
  }
  return undefined;
}

function canInstallWithApt() {
  return (
    process.platform === 'linux' &&
    typeof process.getuid === 'function' &&
    process.getuid() === 0 &&
    existsSync('/usr/bin/apt-get') &&
    existsSync('/etc/debian_version')
  );
}

/** Finds Chromium, installing Debian's package when that is possible; throws a helpful error otherwise. */
export async function ensureChromium({ log = console.error } = {}) {
  const found = await findChromium();
  if (found) return found;
  if (canInstallWithApt()) {
    log('No Chromium found: installing Debian\'s chromium package (apt-get)...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    const installed = await findChromium();
    if (installed) return installed;
  }
  throw new Error(
    [
      'No Chromium browser was found for the tests. Any one of these fixes it:',
      '  - set CHROMIUM_PATH to a Chromium or Chrome executable;',
      '  - on Debian or Ubuntu: sudo apt-get install chromium;',
      '  - elsewhere: npx playwright install chromium.',
    ].join('\n'),
  );
}

/**
 * Flags for every launch: make every non-local host lookup fail at once, so Chromium's own
 * update and account traffic never waits on a closed network.
 */
export const CHROMIUM_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'];

/**
 * Launches the project's Chromium with Playwright: the resolved executable, the flags above, and any
 * extra launch options (their `args` are added to ours).
 */
export async function launchChromium(options = {}) {
  const { chromium } = await import('playwright');
  const { args = [], ...rest } = options;
  return chromium.launch({ ...rest, executablePath: await ensureChromium(), args: [...CHROMIUM_ARGS, ...args] });
}
