/**
 * How every Chromium launch is made (scripts/browsers.mjs): the headless shell unless Chromium itself
 * is asked for; the features Playwright turns off stay off once ours are added (Chromium reads only the
 * last `--disable-features`), and the address bar's WebUI drop-down, which costs a renderer per window,
 * is not loaded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureChromiumHeadless, findExecutable, launchChromium, OUR_DISABLED_FEATURES } from '../../../scripts/browsers.mjs';
import { within } from '../../support/within.js';

const BROWSERS = fileURLToPath(new URL('../../../scripts/browsers.mjs', import.meta.url));

/** The command line Playwright logs when it launches Chromium through launchChromium(options), and all the launching process wrote. */
async function launchLine(options: { full?: boolean } = {}, env: Record<string, string> = {}): Promise<{ line: string; log: string }> {
  const script = `const { launchChromium } = await import(${JSON.stringify(BROWSERS)}); const browser = await launchChromium(${JSON.stringify(options)}); await browser.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env, DEBUG: 'pw:browser' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const code = await within(new Promise<number | null>((resolve) => child.once('exit', resolve)), 60_000, 'Chromium to launch and close');
  assert.equal(code, 0, log);
  const launching = log.split('\n').find((line) => line.includes('<launching>'));
  assert.ok(launching, `Playwright logged no launch line:\n${log}`);
  return { line: launching, log };
}

/** Matches a launch of the executable at `path`. */
const launchOf = (path: string): RegExp => new RegExp(`<launching> ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `);

/** Every `--disable-features=` value of a launch line. */
const disabledFeatureSwitches = (line: string): string[][] => [...line.matchAll(/--disable-features=(\S*)/g)].map((match) => match[1]!.split(',').filter(Boolean));

test('launchChromium runs the headless shell, and Chromium itself when asked for it (full: true)', async () => {
  const [shell, full] = await Promise.all([ensureChromiumHeadless(), ensureChromium()]);
  if (await findExecutable('chromiumHeadless')) assert.notEqual(shell, full, 'the shell is a program of its own');
  assert.match((await launchLine()).line, launchOf(shell));
  assert.match((await launchLine({ full: true })).line, launchOf(full));
});

test('without the headless shell, launchChromium says why and runs Chromium itself', async () => {
  const { line, log } = await launchLine({}, { CHROMIUM_HEADLESS_PATH: '/nonexistent/chromium-headless-shell' });
  assert.match(line, launchOf(await ensureChromium()));
  assert.match(log, /CHROMIUM_HEADLESS_PATH is set to \/nonexistent\/chromium-headless-shell, but no file is there\.\nThe tests use Chromium itself instead\./);
});

test("the last --disable-features holds every feature Playwright turns off, and ours", async () => {
  const switches = disabledFeatureSwitches((await launchLine({ full: true })).line);
  assert.ok(switches.length >= 1, 'a --disable-features on the command line');
  const last = new Set(switches.at(-1));
  const dropped = switches.slice(0, -1).flat().filter((feature) => !last.has(feature));
  assert.deepEqual(dropped, [], `features Playwright turns off that ours would turn on again: add them to PLAYWRIGHT_DISABLED_FEATURES in scripts/browsers.mjs`);
  for (const feature of OUR_DISABLED_FEATURES) assert.ok(last.has(feature), `${feature} is turned off`);
});

test('a page of Chromium itself has no address-bar WebUI beside it', { timeout: 60_000 }, async () => {
  const browser = await launchChromium({ full: true });
  try {
    const page = await browser.newPage();
    await page.goto('about:blank');
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string }> };
    assert.deepEqual(
      targetInfos.filter((target) => target.url.startsWith('chrome://')).map((target) => `${target.type} ${target.url}`),
      [],
    );
    assert.ok(targetInfos.some((target) => target.type === 'page' && target.url === 'about:blank'), JSON.stringify(targetInfos));
  } finally {
    await browser.close();
  }
});
