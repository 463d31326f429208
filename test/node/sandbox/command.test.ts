import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { CommandLineError, parseCommandLine, USAGE } from '../../../src/sandbox/command.js';
import { checkProviderUrl, parseList } from '../../../src/core/urls.js';
import { bundled } from '../../support/bundled.js';

const CLI = await bundled(new URL('../../../src/sandbox/cli.ts', import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, ['--enable-source-maps', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves once stdout contains `text`. */
    waitFor: (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (stdout.includes(text)) {
            child.stdout.off('data', check);
            resolve();
          }
        };
        child.stdout.on('data', check);
        void exited.then((code) => reject(new Error(`exited with ${code} before "${text}": ${stderr}`)));
        check();
      }),
  };
}

/** A signed book request to a running sandbox, signed here with node:crypto. */
function postBook(baseUrl: string, key: string, product: string, uuid: string, extra: Record<string, string> = {}) {
  const sign = (m: string) => createHmac('sha256', key).update(m).digest('base64');
  return fetch(`${baseUrl}/api/client/intent/payment/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      product_code: product,
      amount: 10,
      transaction_uuid: uuid,
      signed_field_names: 'product_code,amount,transaction_uuid',
      signature: sign(`product_code=${product},amount=10,transaction_uuid=${uuid}`),
      callback_url: 'https://shop.example/cb',
      redirect_url: 'https://shop.example/r',
      properties: {},
      ...extra,
    }),
  });
}

async function bookThrough(baseUrl: string, key: string, product: string, uuid: string) {
  const response = await postBook(baseUrl, key, product, uuid);
  assert.equal(response.status, 200);
  return ((await response.json()) as { data: { booking_id: string; deeplink: string } }).data;
}

describe('parseCommandLine', () => {
  test('documented defaults', () => {
    assert.deepEqual(parseCommandLine([]), {
      help: false,
      options: {
        host: '127.0.0.1',
        port: 4010,
        linksPort: 4011,
        accessKey: 'sandbox-access-key',
        productCode: ['SANDBOX'],
        callbackRetry: { attempts: 5, baseDelayMs: 1000 },
      },
    });
  });

  test('reads every flag, repeated product codes included', () => {
    const parsed = parseCommandLine([
      '--port', '5000', '--links-port', '5001', '--access-key', 'k1', '--product-code', 'A', '--product-code', 'B',
      '--booking-ttl', '30', '--callback-attempts', '3', '--callback-delay', '250', '--host', '0.0.0.0',
    ]);
    assert.deepEqual(parsed, {
      help: false,
      options: {
        host: '0.0.0.0',
        port: 5000,
        linksPort: 5001,
        accessKey: 'k1',
        productCode: ['A', 'B'],
        bookingTtlMs: 30_000,
        callbackRetry: { attempts: 3, baseDelayMs: 250 },
      },
    });
  });

  test('--strict asks the sandbox to refuse unknown fields; without it the option is absent (ignored with a warning)', () => {
    const parsed = parseCommandLine(['--strict']);
    assert.equal(parsed.help === false && parsed.options.strict, true);
    const lenient = parseCommandLine([]);
    assert.equal(lenient.help === false && lenient.options.strict, undefined);
  });

  test('--help and -h', () => {
    assert.deepEqual(parseCommandLine(['--help']), { help: true });
    assert.deepEqual(parseCommandLine(['-h']), { help: true });
  });

  const bad: Array<[string[], RegExp]> = [
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535; got "abc"/],
    [['--port', '70000'], /--port must be/],
    [['--port', '-1'], /--port/],
    [['--links-port', '1.5'], /--links-port must be/],
    [['--port', '4500', '--links-port', '4500'], /must differ/],
    [['--access-key', ''], /--access-key must not be empty/],
    [['--product-code', 'has space'], /--product-code must be/],
    [['--booking-ttl', '0'], /--booking-ttl must be/],
    [['--callback-attempts', '0'], /--callback-attempts must be/],
    [['--bogus'], /unknown option --bogus; the options here are .*; e\.g\. wallet-pay-sandbox --port 4010/],
    [['--port'], /--port needs a value, e\.g\. --port 4010\./],
    [['stray'], /"stray" is not a command; the commands are scenarios, clock, scenario, callbacks, run/],
  ];
  for (const [args, message] of bad) {
    test(`refuses ${args.join(' ') || '(nothing)'}`, () => {
      assert.throws(() => parseCommandLine(args), (error: unknown) => error instanceof CommandLineError && message.test(error.message));
    });
  }
});

describe('wallet-pay-sandbox command', () => {
  test('starts, prints its URLs, serves the API with the given key and product, stops on SIGTERM', async () => {
    const cli = run(['--port', '0', '--links-port', '0', '--access-key', 'cli-key', '--product-code', 'CLI01']);
    await cli.waitFor('Press Ctrl+C');
    const baseUrl = /serviceUrl:\s+(http:\/\/127\.0\.0\.1:\d+)\s/.exec(cli.stdout())![1]!;
    assert.match(cli.stdout(), /links \(links_url\):\s+http:\/\/127\.0\.0\.1:\d+\/pay\/\{booking_id\}/);
    assert.match(cli.stdout(), /web payment page:\s+http:\/\/127\.0\.0\.1:\d+\/web\/pay/);
    assert.ok(!cli.stdout().includes('cli-key'), 'a given access key is not echoed');
    const sign = (m: string) => createHmac('sha256', 'cli-key').update(m).digest('base64');
    const response = await fetch(`${baseUrl}/api/client/intent/payment/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        product_code: 'CLI01',
        amount: 10,
        transaction_uuid: 'cli-1',
        signed_field_names: 'product_code,amount,transaction_uuid',
        signature: sign('product_code=CLI01,amount=10,transaction_uuid=cli-1'),
        callback_url: 'https://shop.example/cb',
        redirect_url: 'https://shop.example/r',
        properties: {},
      }),
    });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { code: string }).code, 'IP-201');
    await cli.waitFor('/book -> 200');
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited, 0);
  });

  test('the banner\'s allowed-hosts value, pasted into the element, accepts a real deeplink and the web payment page', async () => {
    const cli = run(['--port', '0', '--links-port', '0', '--access-key', 'cli-key', '--product-code', 'CLI01']);
    try {
      await cli.waitFor('Press Ctrl+C');
      const value = /allowed-hosts:\s+(\S+ \S+)\s/.exec(cli.stdout())?.[1];
      assert.ok(value, `the banner prints allowed-hosts:\n${cli.stdout()}`);
      const baseUrl = /serviceUrl:\s+(http:\/\/\S+)\s/.exec(cli.stdout())![1]!;
      const webPaymentUrl = /web payment page:\s+(http:\/\/\S+)/.exec(cli.stdout())![1]!;
      const data = await bookThrough(baseUrl, 'cli-key', 'CLI01', 'hosts-1');
      // The element splits the attribute with parseList and checks each address with checkProviderUrl.
      const allowed = parseList(value);
      assert.deepEqual(checkProviderUrl(data.deeplink, allowed).ok, true, `${data.deeplink} is allowed by "${value}"`);
      assert.deepEqual(checkProviderUrl(webPaymentUrl, allowed).ok, true, `${webPaymentUrl} is allowed by "${value}"`);
      // The value the docs used to give (the service origin alone) refuses every phone payment.
      assert.deepEqual(checkProviderUrl(data.deeplink, [new URL(baseUrl).host]), { ok: false, reason: 'host-not-allowed' });
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  test('unknown request fields: ignored with a warning line by default, refused with IP-422 under --strict', async () => {
    for (const strict of [false, true]) {
      const cli = run(['--port', '0', '--links-port', '0', '--access-key', 'cli-key', '--product-code', 'CLI01', ...(strict ? ['--strict'] : [])]);
      try {
        await cli.waitFor('Press Ctrl+C');
        assert.match(cli.stdout(), strict ? /unknown fields:\s+refused with IP-422/ : /unknown fields:\s+ignored, with a warning line/);
        const baseUrl = /serviceUrl:\s+(http:\/\/\S+)\s/.exec(cli.stdout())![1]!;
        const response = await postBook(baseUrl, 'cli-key', 'CLI01', `strict-${strict}`, { failure_url: 'https://shop.example/failed' });
        const body = (await response.json()) as { code: string; error_message?: string };
        if (strict) {
          assert.equal(response.status, 422);
          assert.equal(body.code, 'IP-422');
          assert.match(body.error_message!, /Unexpected field\(s\) for book: failure_url/);
          await cli.waitFor('/book -> 422');
          assert.ok(!cli.stdout().includes('warning:'));
        } else {
          assert.equal(response.status, 200);
          assert.equal(body.code, 'IP-201');
          await cli.waitFor('/book -> 200');
          assert.match(cli.stdout(), /warning: book ignored field\(s\) the spec does not list: failure_url \(--strict refuses them\)/);
        }
      } finally {
        cli.child.kill('SIGTERM');
        await cli.exited;
      }
    }
  });

  test('--help prints the usage and exits 0', async () => {
    const cli = run(['--help']);
    assert.equal(await cli.exited, 0);
    assert.equal(cli.stdout().trim(), USAGE.trim());
    assert.match(cli.stdout(), /--port <n>.*default 4010/);
  });

  test('a bad flag value exits 2 with a clear message', async () => {
    const cli = run(['--port', 'eighty']);
    assert.equal(await cli.exited, 2);
    assert.match(cli.stderr(), /wallet-pay-sandbox: --port must be a whole number from 0 to 65535; got "eighty"/);
  });

  test('a port in use exits 1 and says so', async () => {
    const first = run(['--port', '0', '--links-port', '0']);
    await first.waitFor('Press Ctrl+C');
    const port = /serviceUrl:\s+http:\/\/127\.0\.0\.1:(\d+)\s/.exec(first.stdout())![1]!;
    const second = run(['--port', port, '--links-port', '0']);
    assert.equal(await second.exited, 1);
    assert.match(second.stderr(), /already in use/);
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
  });
});
