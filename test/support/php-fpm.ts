/**
 * Runs the PHP example proxy as its README's production recipe says: a throwaway PHP-FPM master with the
 * README's pool and a throwaway nginx with the README's server block, both in a temporary folder, as the
 * current user, on loopback. The README's two fenced blocks are used as written; only what names this
 * machine is replaced (the port, the socket, the file's folder, the users and the variables).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBackends, ensurePhpProduction } from '../../scripts/backends.mjs';

const EXAMPLE_DIR = fileURLToPath(new URL('../../examples/backends/php/', import.meta.url));

/** The README's fenced block of a language (`ini`, `nginx`). */
function readmeBlock(language: string): string {
  const readme = readFileSync(join(EXAMPLE_DIR, 'README.md'), 'utf8');
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(readme);
  if (!match) throw new Error(`examples/backends/php/README.md has no \`\`\`${language} block`);
  return match[1]!;
}

/** `text` with `from` replaced by `to`, failing when the README no longer says `from`. */
function replaced(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`the README's recipe no longer contains ${String(from)}`);
  return out;
}

/** What the proxy is told through the pool's env[...] lines. */
export interface ProductionSettings {
  /** Where the service is (the pool's SERVICE_URL). */
  serviceUrl: string;
  /** Its SQLite file. */
  db: string;
  orderPrefix: string;
  amount: number;
  /** The scratch folder for both servers' configuration, sockets, logs and temporary files. */
  dir: string;
  /** nginx's port (a free one). */
  port: number;
}

/** nginx and PHP-FPM serving proxy.php. */
export interface ProductionProxy {
  url: string;
  port: number;
  endpoint: string;
  /** The README's cron line with the pool's variables, for every open booking however young. */
  reconcile: string;
  /** Both servers' logs. */
  output(): string;
  stop(): Promise<void>;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Writes both configurations into `settings.dir` and returns the pool's variables. */
function writeConfigs(settings: ProductionSettings, socket: string): Record<string, string> {
  const url = `http://127.0.0.1:${settings.port}`;
  const env: Record<string, string> = {
    SERVICE_URL: settings.serviceUrl,
    PRODUCT_CODE: 'SANDBOX',
    ACCESS_KEY: 'sandbox-access-key',
    PUBLIC_URL: url,
    REDIRECT_URL: `${url}/return`,
    DB_PATH: settings.db,
    DEMO_ORDER_PREFIX: settings.orderPrefix,
    DEMO_ORDER_AMOUNT: String(settings.amount),
  };
  const { username } = userInfo();
  let pool = readmeBlock('ini');
  pool = replaced(pool, /^(user|group|listen\.owner|listen\.group) = www-data$/gm, `$1 = ${username}`);
  pool = replaced(pool, /^listen = \/run\/php\/shop\.sock$/m, `listen = ${socket}`);
  pool = replaced(pool, /^env\[.*\n/gm, '');
  pool += Object.entries(env).map(([name, value]) => `env[${name}] = "${value}"\n`).join('');
  const fpmConf = `[global]\npid = ${join(settings.dir, 'php-fpm.pid')}\nerror_log = ${join(settings.dir, 'php-fpm.log')}\ndaemonize = no\n\n${pool}`;
  writeFileSync(join(settings.dir, 'php-fpm.conf'), fpmConf);

  let server = readmeBlock('nginx');
  server = replaced(server, 'listen 127.0.0.1:8080;', `listen 127.0.0.1:${settings.port};`);
  server = replaced(server, '/srv/shop/proxy.php', join(EXAMPLE_DIR, 'proxy.php'));
  server = replaced(server, 'unix:/run/php/shop.sock', `unix:${socket}`);
  // Debian's nginx.conf around a site, reduced to what a scratch folder needs.
  for (const sub of ['body', 'fastcgi']) mkdirSync(join(settings.dir, 'nginx-temp', sub), { recursive: true });
  const params = ['/etc/nginx/fastcgi_params', '/usr/local/nginx/conf/fastcgi_params', '/usr/local/etc/nginx/fastcgi_params'].find((p) => existsSync(p));
  if (!params) throw new Error("nginx's fastcgi_params was not found (Debian: apt-get install nginx-light)");
  copyFileSync(params, join(settings.dir, 'fastcgi_params'));
  // As root, nginx's workers would run as nobody, who may not open the scratch folder.
  const nginxUser = process.getuid?.() === 0 ? `user ${username};\n` : '';
  const nginxConf = `${nginxUser}pid ${join(settings.dir, 'nginx.pid')};
error_log ${join(settings.dir, 'nginx-error.log')} info;
worker_processes 1;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path ${join(settings.dir, 'nginx-temp', 'body')};
    fastcgi_temp_path ${join(settings.dir, 'nginx-temp', 'fastcgi')};
    proxy_temp_path ${join(settings.dir, 'nginx-temp', 'proxy')};
${server}}
`;
  writeFileSync(join(settings.dir, 'nginx.conf'), nginxConf);
  return env;
}

/** Starts one process in its own group, collecting its output. */
function start(program: string, args: string[], log: string[]): { child: ChildProcess; stop(): Promise<void> } {
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  return {
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** Starts PHP-FPM and nginx as the README says and waits (at most 15 s) until a route answers. */
export async function startPhpProduction(settings: ProductionSettings): Promise<ProductionProxy> {
  const programs = ensurePhpProduction({ log: () => {} });
  const socket = join(settings.dir, 'shop.sock');
  const env = writeConfigs(settings, socket);
  const log: string[] = [];
  const root = process.getuid?.() === 0 ? ['-R'] : [];
  const fpm = start(programs.phpFpm, ['-F', '-p', settings.dir, '-y', join(settings.dir, 'php-fpm.conf'), ...root], log);
  const nginx = start(programs.nginx, ['-p', settings.dir, '-c', join(settings.dir, 'nginx.conf'), '-g', 'daemon off;'], log);
  const url = `http://127.0.0.1:${settings.port}`;
  const readLog = (name: string) => (existsSync(join(settings.dir, name)) ? readFileSync(join(settings.dir, name), 'utf8') : '');
  const output = () => [log.join(''), readLog('php-fpm.log'), readLog('nginx-error.log')].join('\n').slice(-6000);
  const stop = async () => {
    await Promise.all([nginx.stop(), fpm.stop()]);
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const exited = [fpm, nginx].find((p) => p.child.exitCode !== null);
    if (exited) {
      await stop();
      throw new Error(`${exited === fpm ? 'php-fpm' : 'nginx'} exited at start (code ${exited.child.exitCode}):\n${output()}`);
    }
    try {
      // Through both: nginx answers 502 until PHP-FPM listens, then proxy.php answers its 405.
      const answer = await fetch(`${url}/api/pay/book`, { signal: AbortSignal.timeout(1000) });
      if (answer.status === 405) break;
    } catch {
      // nginx not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx and PHP-FPM did not answer on ${url} within 15 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cronEnv = Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`).join(' ');
  return {
    url,
    port: settings.port,
    endpoint: `${url}/api/pay`,
    reconcile: `cd ${quote(EXAMPLE_DIR)} && env ${cronEnv} RECONCILE_AFTER_SECONDS=0 ${quote(ensureBackends({ log: () => {} }).php)} proxy.php reconcile`,
    output,
    stop,
  };
}
