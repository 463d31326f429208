// Resolves every browser the tests use, in one place, and installs the missing ones where it can.
//
//   engine     env override            then                                         Debian package
//   Chromium   CHROMIUM_HEADLESS_PATH  /usr/bin/chromium-headless-shell             chromium-headless-shell
//    (shell)                           (else the Chromium below, at more CPU)
//   Chromium   CHROMIUM_PATH           /usr/bin/chromium, then Playwright's own     chromium
//   Firefox    FIREFOX_PATH            /usr/bin/firefox-esr, /usr/bin/firefox       firefox-esr
//   WebKit     WEBKIT_WEBDRIVER_PATH   /usr/bin/WebKitWebDriver                     webkit2gtk-driver
//              WEBKIT_BROWSER_PATH     /usr/lib/<arch>/webkit2gtk-4.1/MiniBrowser   (same)
//   display    XVFB_PATH               /usr/bin/Xvfb (only without $DISPLAY)        xvfb
//
// WebKit is WebKitGTK's MiniBrowser driven by WebKitWebDriver: it needs an X display, so the WebKit
// launcher (test/support/launchers.mjs) starts Xvfb itself when $DISPLAY is unset.
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { aptInstall, canInstallWithApt } from './host.mjs';

/** Where Debian puts WebKitGTK's MiniBrowser: /usr/lib/<multiarch triplet>/webkit2gtk-4.1/MiniBrowser. */
function debianMiniBrowsers() {
  let triplets = [];
  try {
    triplets = readdirSync('/usr/lib').filter((name) => name.endsWith('-linux-gnu'));
  } catch {
    // No /usr/lib: not a Linux machine.
  }
  return triplets.map((triplet) => `/usr/lib/${triplet}/webkit2gtk-4.1/MiniBrowser`);
}

async function playwrightChromium() {
  try {
    const { chromium } = await import('playwright');
    return chromium.executablePath();
  } catch {
    // Playwright without a downloaded browser.
    return undefined;
  }
}

/**
 * What each executable is, where it may be found, and how to get it.
 * `candidates` returns paths to try in order after the env variable; a function in it is called only
 * when the paths before it are missing (Playwright's own Chromium takes seconds to import).
 */
const EXECUTABLES = {
  chromium: {
    label: 'Chromium',
    env: 'CHROMIUM_PATH',
    candidates: async () => ['/usr/bin/chromium', playwrightChromium],
    aptPackage: 'chromium',
    fixes: ['on Debian or Ubuntu: sudo apt-get install chromium', 'elsewhere: npx playwright install chromium'],
  },
  chromiumHeadless: {
    label: "Chromium's headless shell",
    env: 'CHROMIUM_HEADLESS_PATH',
    candidates: async () => ['/usr/bin/chromium-headless-shell'],
    aptPackage: 'chromium-headless-shell',
    fixes: ['on Debian or Ubuntu: sudo apt-get install chromium-headless-shell', 'elsewhere: npx playwright install chromium-headless-shell, and set CHROMIUM_HEADLESS_PATH'],
  },
  firefox: {
    label: 'Firefox',
    env: 'FIREFOX_PATH',
    candidates: async () => ['/usr/bin/firefox-esr', '/usr/bin/firefox'],
    aptPackage: 'firefox-esr',
    fixes: ['on Debian or Ubuntu: sudo apt-get install firefox-esr', 'elsewhere: install Firefox and set FIREFOX_PATH'],
  },
  webkitDriver: {
    label: 'WebKitGTK WebDriver (WebKitWebDriver)',
    env: 'WEBKIT_WEBDRIVER_PATH',
    candidates: async () => ['/usr/bin/WebKitWebDriver'],
    aptPackage: 'webkit2gtk-driver',
    fixes: [
      'on Debian or Ubuntu: sudo apt-get install webkit2gtk-driver',
      'elsewhere: build WebKitGTK and set WEBKIT_WEBDRIVER_PATH and WEBKIT_BROWSER_PATH',
    ],
  },
  webkitBrowser: {
    label: 'WebKitGTK MiniBrowser',
    env: 'WEBKIT_BROWSER_PATH',
    candidates: async () => debianMiniBrowsers(),
    aptPackage: 'webkit2gtk-driver',
    fixes: ['on Debian or Ubuntu: sudo apt-get install webkit2gtk-driver (its libwebkit2gtk-4.1-0 ships MiniBrowser)'],
  },
  xvfb: {
    label: 'Xvfb (a virtual display for WebKit)',
    env: 'XVFB_PATH',
    candidates: async () => ['/usr/bin/Xvfb'],
    aptPackage: 'xvfb',
    fixes: ['on Debian or Ubuntu: sudo apt-get install xvfb', 'or run the tests with a display ($DISPLAY set)'],
  },
};

/** Returns the path of one executable (a key of EXECUTABLES), or undefined when none is found. */
export async function findExecutable(name) {
  const entry = EXECUTABLES[name];
  const fromEnv = process.env[entry.env];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`${entry.env} is set to ${fromEnv}, but no file is there.`);
    return fromEnv;
  }
  for (const candidate of await entry.candidates()) {
    const path = typeof candidate === 'function' ? await candidate() : candidate;
    if (path && existsSync(path)) return path;
  }
  return undefined;
}

function missingMessage(names) {
  const lines = ['The browser tests need programs that were not found. Any one fix per line works:'];
  for (const name of names) {
    const entry = EXECUTABLES[name];
    lines.push(`  ${entry.label}:`, `    - set ${entry.env} to its executable;`);
    for (const fix of entry.fixes) lines.push(`    - ${fix};`);
  }
  return lines.join('\n');
}

/**
 * Resolves the named executables, installing the missing ones with apt-get when that is possible
 * (Debian, as root); throws an error that names the fix otherwise. Returns `{ name: path }`.
 */
export async function ensureExecutables(names, { log = console.error } = {}) {
  const found = {};
  const missing = [];
  for (const name of names) {
    const path = await findExecutable(name);
    if (path) found[name] = path;
    else missing.push(name);
  }
  if (missing.length === 0) return found;
  if (canInstallWithApt()) {
    const packages = [...new Set(missing.map((name) => EXECUTABLES[name].aptPackage))];
    log(`Installing Debian packages for the browser tests (apt-get): ${packages.join(' ')}...`);
    aptInstall(packages, { recommends: true });
  }
  const stillMissing = [];
  for (const name of missing) {
    const path = await findExecutable(name);
    if (path) found[name] = path;
    else stillMissing.push(name);
  }
  if (stillMissing.length > 0) throw new Error(missingMessage(stillMissing));
  return found;
}

/** What the browser tests need: the three engines, and Xvfb when there is no display. */
export function neededForBrowserTests(env = process.env) {
  const names = ['chromium', 'firefox', 'webkitDriver', 'webkitBrowser'];
  if (!env.DISPLAY) names.push('xvfb');
  return names;
}

function firstLine(text) {
  return text.split('\n').find((line) => line.trim())?.trim() ?? '';
}

/** `<executable> --version`, or undefined when it prints nothing or fails. */
function versionOption(path) {
  try {
    return firstLine(execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 })) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * WebKitGTK has no version option (MiniBrowser needs a display, WebKitWebDriver prints its usage):
 * the version is that of the Debian package that ships the file.
 */
function debianPackageVersion(path) {
  try {
    const owner = execFileSync('dpkg-query', ['-S', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 });
    const name = firstLine(owner).split(':')[0];
    const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 });
    return `WebKitGTK ${version.trim()} (Debian package ${name})`;
  } catch {
    return undefined;
  }
}

/**
 * One line per engine found (`{ name: path }` as ensureExecutables returns), naming its version, so
 * a run on another machine says at once which browsers it tested.
 */
export function engineVersions(found) {
  const lines = [];
  if (found.chromium) lines.push(`Chromium: ${versionOption(found.chromium) ?? 'version unknown'} (${found.chromium})`);
  if (found.chromiumHeadless) lines.push(`Chromium's headless shell: ${versionOption(found.chromiumHeadless) ?? 'version unknown'} (${found.chromiumHeadless})`);
  if (found.firefox) lines.push(`Firefox: ${versionOption(found.firefox) ?? 'version unknown'} (${found.firefox})`);
  if (found.webkitBrowser) {
    const version = debianPackageVersion(found.webkitBrowser) ?? 'version unknown (not from a Debian package)';
    lines.push(`WebKit: ${version} (${found.webkitBrowser}, driven by ${found.webkitDriver ?? 'WebKitWebDriver'})`);
  }
  return lines;
}

/** Returns the first Chromium executable found, or undefined. */
export function findChromium() {
  return findExecutable('chromium');
}

/** Finds Chromium, installing Debian's package when that is possible; throws a helpful error otherwise. */
export async function ensureChromium(options) {
  return (await ensureExecutables(['chromium'], options)).chromium;
}

/**
 * The features Playwright turns off itself, in the one `--disable-features` it passes. Chromium reads
 * only the last `--disable-features` of a command line, so ours repeats them;
 * test/node/scripts/browsers.test.ts fails when Playwright's list has one this one lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * What we turn off besides: Chromium 156 loads the address bar's drop-down as two WebUI pages
 * (chrome://omnibox-popup.top-chrome/) in a renderer of their own for every window, headless too, and
 * nothing here types in an address bar. That renderer took 8 of the 36 CPU-seconds of one end-to-end
 * file (test/e2e/journeys.test.ts), more than the checkout pages' own renderers.
 */
export const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Flags for every Chromium launch: make every non-local host lookup fail at once, so Chromium's own
 * update and account traffic never waits on a closed network; and the features above turned off.
 */
export const CHROMIUM_ARGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`,
];

/**
 * Finds Chromium's headless shell (the headless-only build of the same Chromium, which Playwright
 * itself runs headless by default), installing Debian's package when that is possible. Without it the
 * tests run on Chromium itself: the same engine, at more CPU (a page opened, loaded and closed costs
 * its browser process about three times as much).
 */
export function ensureChromiumHeadless({ log = console.error } = {}) {
  // Once per process: a machine without the shell says so once, not at every launch.
  headless ??= (async () => {
    try {
      return (await ensureExecutables(['chromiumHeadless'], { log })).chromiumHeadless;
    } catch (error) {
      log(`${error instanceof Error ? error.message : error}\nThe tests use Chromium itself instead.`);
      return ensureChromium({ log });
    }
  })();
  return headless;
}
/** @type {Promise<string> | undefined} */
let headless;

/**
 * Launches Chromium with Playwright, with the flags above and any extra launch options (their `args`
 * are added to ours): the headless shell, or with `full: true` Chromium itself, for what only the
 * whole browser has (the back/forward cache: the shell never restores a page from it).
 */
export async function launchChromium(options = {}) {
  const { chromium } = await import('playwright');
  const { args = [], full = false, ...rest } = options;
  const executablePath = full ? await ensureChromium() : await ensureChromiumHeadless();
  return chromium.launch({ ...rest, executablePath, args: [...CHROMIUM_ARGS, ...args] });
}
