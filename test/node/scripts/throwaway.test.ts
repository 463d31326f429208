import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { copyOfInitialised, serverProcess } from '../../../scripts/throwaway.mjs';
import { canListen, ephemeralPorts, freePort } from '../../../scripts/host.mjs';

const node = process.execPath;

test('serverProcess resolves on the ready line, stops with a signal and starts again', async () => {
  const server = serverProcess({ command: node, args: ['-e', 'console.log("all set"); setInterval(() => {}, 1000)'], name: 'fake', ready: /all set/, readyWithinMs: 30_000 });
  await server.launch();
  await server.stop();
  await server.resume();
  await server.stop('SIGKILL');
});

test('serverProcess fails with the output so far when the ready line does not come in time', async () => {
  let resolvePrinted = () => {};
  const printed = new Promise<void>((resolve) => (resolvePrinted = resolve));
  const server = serverProcess({
    command: node,
    args: ['-e', 'console.error("warming up"); setInterval(() => {}, 1000)'],
    name: 'slowpoke',
    ready: /all set/,
    readyWithinMs: 1_500,
    log: () => resolvePrinted(),
  });
  const launched = server.launch();
  launched.catch(() => {});
  // A loaded machine may take more than the limit to start node: the output is there when it printed in time.
  const first = await Promise.race([printed.then(() => 'printed'), launched.then(() => 'ready', () => 'failed')]);
  await assert.rejects(launched, first === 'printed' ? /^Error: slowpoke was not ready within 1\.5 s:\nwarming up\n$/ : /^Error: slowpoke was not ready within 1\.5 s:\n/);
  // The server was killed when the time was up; stopping after a failed start is safe.
  await server.stop();
});

test('serverProcess fails with the exit code and output when the server exits before its ready line', async () => {
  const server = serverProcess({ command: node, args: ['-e', 'console.error("bad option"); process.exit(3)'], name: 'quitter', ready: /all set/, readyWithinMs: 30_000 });
  await assert.rejects(server.launch(), /^Error: quitter exited \(3\):\nbad option/);
});

test('copyOfInitialised initialises a template once and hands each caller its own copy', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'wpb-copy-test-'));
  const program = join(scratch, 'initialiser');
  writeFileSync(program, '');
  const name = `test-${randomUUID()}`;
  let inits = 0;
  const init = (folder: string) => {
    inits += 1;
    mkdirSync(folder);
    writeFileSync(join(folder, 'marker'), 'initialised');
  };
  const user = process.getuid?.() === 0 ? 'root' : '';
  try {
    copyOfInitialised({ name, key: [program, '--one'], init, data: join(scratch, 'a'), user });
    copyOfInitialised({ name, key: [program, '--one'], init, data: join(scratch, 'b'), user });
    assert.equal(inits, 1);
    writeFileSync(join(scratch, 'a', 'marker'), 'changed by its server');
    assert.equal(readFileSync(join(scratch, 'b', 'marker'), 'utf8'), 'initialised');
    // Other options, another template.
    copyOfInitialised({ name, key: [program, '--two'], init, data: join(scratch, 'c'), user });
    assert.equal(inits, 2);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    for (const entry of readdirSync(tmpdir()).filter((entry) => entry.startsWith(`wpb-${name}-`))) rmSync(join(tmpdir(), entry), { recursive: true, force: true });
  }
});

test('copyOfInitialised leaves no template behind when initialising fails, so the next caller tries again', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'wpb-copy-test-'));
  const program = join(scratch, 'initialiser');
  writeFileSync(program, '');
  const name = `test-${randomUUID()}`;
  const user = process.getuid?.() === 0 ? 'root' : '';
  try {
    assert.throws(
      () => copyOfInitialised({ name, key: [program], data: join(scratch, 'a'), user, init: () => { throw new Error('initdb: disk full'); } }),
      /^Error: initdb: disk full$/,
    );
    assert.deepEqual(readdirSync(tmpdir()).filter((entry) => entry.startsWith(`wpb-${name}-`)), []);
    copyOfInitialised({ name, key: [program], data: join(scratch, 'a'), user, init: (folder) => mkdirSync(folder) });
    assert.ok(existsSync(join(scratch, 'a')));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    for (const entry of readdirSync(tmpdir()).filter((entry) => entry.startsWith(`wpb-${name}-`))) rmSync(join(tmpdir(), entry), { recursive: true, force: true });
  }
});

test('freePort gives a loopback port a server can then listen on', async () => {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  await new Promise((resolve) => server.close(resolve));
});

test('freePort never hands out a port the system may give a server on port 0 or a connection', async () => {
  const { low, high } = ephemeralPorts();
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) assert.ok(port < low || port > high, `${port} is in the system's own range ${low}-${high}`);
  // What the system picks itself lies in that range: the ports freePort used to hand out.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const picked = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  assert.ok(picked >= low && picked <= high, `the system picked ${picked}, outside ${low}-${high}`);
  assert.deepEqual(ephemeralPorts(() => '32768\t60999\n'), { low: 32768, high: 60999 });
  assert.deepEqual(ephemeralPorts(() => { throw new Error('no /proc'); }), { low: 49152, high: 65535 });
  assert.deepEqual(ephemeralPorts(() => 'garbage'), { low: 49152, high: 65535 });
  // A range that leaves no room on either side: a clear error, not a port of the system's.
  await assert.rejects(freePort({ low: 10_500, high: 65_000 }), /hands out ports 10500-65000 itself.*ip_local_port_range/);
  const above = await freePort({ low: 10_000, high: 60_000 });
  assert.ok(above > 60_000, `${above} is above a range that leaves no room below it`);
  // A port something listens on is not free.
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(ports[0], '127.0.0.1', resolve));
  assert.equal(await canListen(ports[0]!), false);
  await new Promise((resolve) => holder.close(resolve));
  assert.equal(await canListen(ports[0]!), true);
});
