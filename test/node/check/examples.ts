/**
 * Starts the example proxies of examples/backends/ (PHP's built-in server, Python's standard library
 * server) as real processes on loopback, each with its own SQLite file, for the checker and the
 * journeys through them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBackends } from '../../../scripts/backends.mjs';
import { freePort, isPortFree } from './support.js';

export type ExampleKind = 'php' | 'python';
export const EXAMPLE_KINDS: readonly ExampleKind[] = ['php', 'python'];

const DIR = (kind: ExampleKind) => fileURLToPath(new URL(`../../../examples/backends/${kind}/`, import.meta.url));

/** What an example proxy is told through its environment. */
export interface ExampleSettings {
  sandboxPort: number;
  /** Its SQLite file. */
  db: string;
  /** Orders whose id starts with this are the shop's, for `amount`. */
  orderPrefix: string;
  amount: number;
  /** Where the shopper returns after paying; default the proxy's own /return. */
  redirectUrl?: string;
  /** Its own address as the service reaches it (for callbacks); default its own. */
  publicUrl?: string;
  /** Default a free port. */
  port?: number;
  /** The folder of the proxy's file; default the example's own (a test's variant lives elsewhere). */
  dir?: string;
  /**
   * `epay`: the proxy in its ePay v2 mode, eSewa's form and status check on the sandbox (EPAYTEST, the published secret);
   * `khalti`: in its Khalti mode, Khalti's API on the sandbox, the sandbox's access key as the secret key.
   */
  provider?: 'epay' | 'khalti';
}

/** A running example proxy. */
export interface RunningExample {
  url: string;
  port: number;
  endpoint: string;
  /** The process id (under php -S, the server's, whose workers are its children). */
  pid: number;
  /** Its reconciliation as its README runs it from cron, for every open booking however young. */
  reconcile: string;
  output(): string;
  stop(): Promise<void>;
}

let found: { php: string; python: string } | undefined;

/** Starts one example proxy and waits (at most 15 s) until it answers. */
export async function startExample(kind: ExampleKind, settings: ExampleSettings): Promise<RunningExample> {
  found ??= ensureBackends({ log: () => {} }) as { php: string; python: string };
  const port = settings.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    SERVICE_URL: `http://127.0.0.1:${settings.sandboxPort}`,
    PRODUCT_CODE: 'SANDBOX',
    ACCESS_KEY: 'sandbox-access-key',
    PUBLIC_URL: settings.publicUrl ?? url,
    REDIRECT_URL: settings.redirectUrl ?? `${url}/return`,
    DB_PATH: settings.db,
    DEMO_ORDER_PREFIX: settings.orderPrefix,
    DEMO_ORDER_AMOUNT: String(settings.amount),
    PORT: String(port),
    ...(settings.provider === 'epay'
      ? { PROVIDER: 'epay', EPAY_FORM_URL: `http://127.0.0.1:${settings.sandboxPort}`, EPAY_STATUS_URL: `http://127.0.0.1:${settings.sandboxPort}` }
      : {}),
    ...(settings.provider === 'khalti' ? { PROVIDER: 'khalti', KHALTI_BASE_URL: `http://127.0.0.1:${settings.sandboxPort}`, KHALTI_SECRET_KEY: 'sandbox-access-key' } : {}),
    PYTHONDONTWRITEBYTECODE: '1',
    // As the README runs it: several requests at once (php -S alone serves one at a time).
    PHP_CLI_SERVER_WORKERS: '4',
  };
  const dir = settings.dir ?? DIR(kind);
  const child: ChildProcess =
    kind === 'php'
      ? spawn(found.php, ['-S', `127.0.0.1:${port}`, 'proxy.php'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
      : spawn(found.python, ['proxy.py'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // Its own process group: php -S's workers are stopped with it.
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const reconcileEnv = (['SERVICE_URL', 'PRODUCT_CODE', 'ACCESS_KEY', 'PUBLIC_URL', 'DB_PATH', 'PYTHONDONTWRITEBYTECODE'] as const).map((name) => `${name}=${quote(env[name])}`);
  const modeEnv = { epay: ['PROVIDER', 'EPAY_FORM_URL', 'EPAY_STATUS_URL'], khalti: ['PROVIDER', 'KHALTI_BASE_URL', 'KHALTI_SECRET_KEY'] } as const;
  if (settings.provider) reconcileEnv.push(...modeEnv[settings.provider].map((name) => `${name}=${quote((env as Record<string, string>)[name]!)}`));
  const reconcile = `cd ${quote(dir)} && env ${reconcileEnv.join(' ')} RECONCILE_AFTER_SECONDS=0 ${quote(kind === 'php' ? found.php : found.python)} ${kind === 'php' ? 'proxy.php' : 'proxy.py'} reconcile`;
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${kind} example exited at start (code ${child.exitCode}):\n${output}`);
    try {
      await fetch(`${url}/api/pay/book`, { method: 'GET', signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        signal('SIGKILL');
        throw new Error(`the ${kind} example did not answer on ${url} within 15 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    port,
    endpoint: `${url}/api/pay`,
    pid: child.pid!,
    reconcile,
    output: () => output,
    // Resolves once the port is free again: php -S's workers outlive the server process for a moment,
    // holding the listening socket, and a restart on the same port found it taken (8 times in 10).
    stop: async () => {
      if (child.exitCode === null) {
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      signal('SIGKILL');
      const by = Date.now() + 5_000;
      while (!(await isPortFree(port))) {
        if (Date.now() > by) throw new Error(`the ${kind} example's port ${port} is still taken 5 s after it was stopped`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
