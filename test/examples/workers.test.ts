import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { describeExample, waitFor, type Running } from './journey.js';
import { bundleWorker } from './workers-bundle.js';

describeExample({
  name: 'workers',
  reconcile: 'scheduled',
  browser: true,
  postgres: true,
  platformAnswers: {
    malformedHost: 'all',
    why: "the static-assets router in front of the worker parses the URL first and answers a Host it cannot parse with a plain 500 (Cloudflare's edge refuses such a Host before it in production)",
  },
  async prepare(dir) {
    execFileSync(process.execPath, ['copy-assets.mjs'], { cwd: dir });
    await bundleWorker(join(dir, 'worker.ts'), join(dir, 'dist', 'worker.js'));
  },
  async start(dir, env, port): Promise<Running> {
    let output = '';
    // The runtime settings of the example's wrangler.jsonc (its comments are whole lines).
    const wrangler = JSON.parse(readFileSync(join(dir, 'wrangler.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { compatibility_date: string; compatibility_flags: string[] };
    // workerd itself, as `wrangler dev` runs it, with the settings of wrangler.jsonc.
    const mf = new Miniflare({
      scriptPath: join(dir, 'dist', 'worker.js'),
      modules: true,
      modulesRoot: join(dir, 'dist'),
      compatibilityDate: wrangler.compatibility_date,
      compatibilityFlags: wrangler.compatibility_flags,
      bindings: env,
      assets: { directory: join(dir, 'public'), binding: 'ASSETS', routerConfig: { invoke_user_worker_ahead_of_assets: true, has_user_worker: true } },
      host: '127.0.0.1',
      port,
      handleRuntimeStdio(stdout, stderr) {
        stdout.on('data', (chunk) => (output += chunk));
        stderr.on('data', (chunk) => (output += chunk));
      },
    });
    const origin = `http://127.0.0.1:${port}`;
    let disposed: Promise<void> | undefined;
    await mf.ready;
    await waitFor('the worker to serve its checkout page', async () => ((await fetch(`${origin}/`)).ok ? true : undefined));
    return {
      origin,
      output: () => output,
      async scheduled() {
        // The Fetcher's `scheduled()`: workerd's own Cron Trigger path, as the platform calls it.
        const worker = (await mf.getWorker()) as unknown as { scheduled(options: { cron: string }): Promise<{ outcome: string }> };
        const result = await worker.scheduled({ cron: '*/5 * * * *' });
        if (result.outcome !== 'ok') throw new Error(`scheduled: ${result.outcome}`);
      },
      stop: () => (disposed ??= mf.dispose()),
    };
  },
});
