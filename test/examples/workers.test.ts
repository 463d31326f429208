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
    answer: { status: 500, rest: /^Connection: close\r\nContent-Length: 21\r\n\r\nInternal Server Error$/ },
    why:
      "the local runtime's router in front of the worker (Miniflare's entry worker, as `wrangler dev` runs it) parses the URL first and answers a Host it " +
      "cannot parse with a plain 500, its error only on the runtime's own stderr; workerd's socket of the worker itself hands the request to the " +
      "worker, which answers 400 (Cloudflare's edge refuses such a Host before any worker in production)",
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
      async direct() {
        // workerd's own socket of the worker, past Miniflare's routers (with `assets`, even a direct
        // socket goes through the assets router): the same worker and settings, its ASSETS unreached.
        const bare = new Miniflare({
          scriptPath: join(dir, 'dist', 'worker.js'),
          modules: true,
          modulesRoot: join(dir, 'dist'),
          compatibilityDate: wrangler.compatibility_date,
          compatibilityFlags: wrangler.compatibility_flags,
          bindings: env,
          serviceBindings: { ASSETS: () => new Response('not found', { status: 404 }) },
          host: '127.0.0.1',
          port: 0,
          unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
          handleRuntimeStdio() {},
        });
        await bare.ready;
        return { port: Number((await bare.unsafeGetDirectURL()).port), stop: () => bare.dispose() };
      },
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
