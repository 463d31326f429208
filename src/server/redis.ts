/**
 * `wallet-pay-button/server/redis`: a {@link PaymentStore} on Redis (or Valkey), shared by any number
 * of handler processes. It needs only `evalsha` and `eval` as `ioredis` (or `iovalkey`) answers them;
 * neither is a dependency of this package.
 *
 * Every call is one Lua script, run atomically by the server: the order lease, the result claims and
 * a booking saved with its lease's end each happen whole or not at all, in one round trip. Scripts
 * are sent by their SHA-1 (`EVALSHA`), and in full once when the server does not know them yet.
 *
 * Durability is the server's: only with `appendonly yes` and `appendfsync always` does a write the
 * store acknowledged survive a crash of the Redis server (see docs/server.md).
 */
import { createHash } from 'node:crypto';
import type { PaymentStatus } from '../protocol/contract.js';
import { checkDeadline, withinDeadline } from './store-deadline.js';
import { StoreUnavailableError } from './store-errors.js';
import type { BookingOpening, OpenBookingClaim, PaymentStore, ResultClaim, StoredBooking } from './store.js';

/** What the store needs of a Redis client: an `ioredis` or `iovalkey` client (standalone or Cluster) fits. */
export interface RedisScripting {
  evalsha(sha1: string, numberOfKeys: number, ...args: Array<string | number>): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /**
   * Put before every key. It must hold a hash tag (`{...}`) so that, on a Redis Cluster, every key of
   * the store is on one node (each script reads and writes several). Default `{wpb}:`.
   */
  keyPrefix?: string;
  /**
   * Longest a store call may take, in ms (default 5 000): past it the call rejects with
   * {@link StoreUnavailableError} (`deadline`), which the handler answers `IP-503`. A command the
   * client queued while disconnected may still run once it reconnects; each script is whole either way.
   */
  deadlineMs?: number;
}

/** A {@link PaymentStore} on Redis, with {@link ready} to check (or write) its data version ahead of the first request. */
export interface RedisStore extends PaymentStore {
  /** Writes the data version when missing and refuses a newer one. Every method awaits it first. */
  ready(): Promise<void>;
}

/** The layout of keys this code reads and writes. */
export const REDIS_DATA_VERSION = 1;

const PREFIX = /^[^\s]*\{[^{}\s]+\}[^\s]*$/;

// Shared by the scripts. Keys: P..'b:'..id a booking (hash: data, the booking's JSON; settled; key,
// corr, order; co/cu/ca the check claim's owner, end and time), P..'k:'..key and P..'c:'..corr its
// id, P..'o:'..order its order's ids (sorted by creation), P..'open' and P..'created' (ids by
// creation), P..'r:'..corr its results (hash: status..':o' owner, ':u' claim end, ':d' delivered at,
// ':c' first claimed), P..'results' (corr..'\n'..status by creation), P..'l:'..name a lease (owner,
// until), P..'leases' (names by end). Times are compared as numbers and written as given.
const COMMON = `
local P = KEYS[1]
local function take_lease(name, owner, now, untilText)
  local held = redis.call('HMGET', P .. 'l:' .. name, 'owner', 'until')
  if held[1] and held[1] ~= owner and tonumber(held[2]) >= now then return false end
  redis.call('HSET', P .. 'l:' .. name, 'owner', owner, 'until', untilText)
  redis.call('ZADD', P .. 'leases', untilText, name)
  return true
end
local function release_lease(name, owner)
  if redis.call('HGET', P .. 'l:' .. name, 'owner') == owner then
    redis.call('DEL', P .. 'l:' .. name)
    redis.call('ZREM', P .. 'leases', name)
  end
end
local function order_state(order)
  local out = {}
  for _, id in ipairs(redis.call('ZRANGE', P .. 'o:' .. order, 0, -1)) do
    local b = redis.call('HMGET', P .. 'b:' .. id, 'data', 'settled', 'corr')
    if b[1] then
      local r = redis.call('HMGET', P .. 'r:' .. b[3], 'SUCCESS:o', 'REVERTED:d')
      out[#out + 1] = b[1]
      out[#out + 1] = b[2]
      out[#out + 1] = (r[1] and not r[2]) and '1' or '0'
    end
  end
  return out
end
`;

const SCRIPTS = {
  version: `local v = redis.call('HGET', P .. 'meta', 'version')
if not v then redis.call('HSET', P .. 'meta', 'version', ARGV[1]) return ARGV[1] end
return v`,
  byIndex: `local id = redis.call('GET', P .. ARGV[1] .. ARGV[2])
if not id then return false end
return redis.call('HGET', P .. 'b:' .. id, 'data')`,
  byId: `return redis.call('HGET', P .. 'b:' .. ARGV[1], 'data')`,
  insert: `local id, key, corr, order, created, data, lease, owner = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local saved = 0
if redis.call('EXISTS', P .. 'k:' .. key) == 0 and redis.call('EXISTS', P .. 'b:' .. id) == 0 and redis.call('EXISTS', P .. 'c:' .. corr) == 0 then
  redis.call('HSET', P .. 'b:' .. id, 'data', data, 'settled', '0', 'key', key, 'corr', corr, 'order', order, 'co', '', 'cu', '0', 'ca', '0')
  redis.call('SET', P .. 'k:' .. key, id)
  redis.call('SET', P .. 'c:' .. corr, id)
  redis.call('ZADD', P .. 'o:' .. order, created, id)
  redis.call('ZADD', P .. 'open', created, id)
  redis.call('ZADD', P .. 'created', created, id)
  saved = 1
end
if lease ~= '' then release_lease(lease, owner) end
return saved`,
  begin: `local key, order, lease, owner, now, untilText = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[6]
local id = redis.call('GET', P .. 'k:' .. key)
if id then return {'booked', redis.call('HGET', P .. 'b:' .. id, 'data')} end
if not take_lease(lease, owner, now, untilText) then return {'busy'} end
local out = order_state(order)
table.insert(out, 1, 'leased')
return out`,
  orderState: `return order_state(ARGV[1])`,
  bookingState: `local b = redis.call('HMGET', P .. 'b:' .. ARGV[1], 'data', 'corr')
if not b[1] then return false end
local out = {b[1]}
local fields = redis.call('HGETALL', P .. 'r:' .. b[2])
for i = 1, #fields, 2 do
  local status = string.match(fields[i], '^(.*):d$')
  if status then out[#out + 1] = status end
end
return out`,
  acquire: `return take_lease(ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]) and 1 or 0`,
  release: `release_lease(ARGV[1], ARGV[2]) return 0`,
  claim: `local corr, s, owner, nowText, untilText = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local k = P .. 'r:' .. corr
local r = redis.call('HMGET', k, s .. ':o', s .. ':u', s .. ':d')
if r[3] then return 'delivered' end
if r[1] and r[1] ~= owner and tonumber(r[2]) >= tonumber(nowText) then return 'busy' end
if not r[1] then
  redis.call('HSET', k, s .. ':c', nowText)
  redis.call('ZADD', P .. 'results', nowText, corr .. '\\n' .. s)
end
redis.call('HSET', k, s .. ':o', owner, s .. ':u', untilText)
return 'claimed'`,
  complete: `local corr, s, owner, nowText, final = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local k = P .. 'r:' .. corr
local r = redis.call('HMGET', k, s .. ':o', s .. ':d')
if r[1] ~= owner or r[2] then return 0 end
redis.call('HSET', k, s .. ':d', nowText)
if final == '1' then
  local id = redis.call('GET', P .. 'c:' .. corr)
  if id then
    redis.call('HSET', P .. 'b:' .. id, 'settled', '1')
    redis.call('ZREM', P .. 'open', id)
  end
end
return 1`,
  releaseResult: `local corr, s, owner = ARGV[1], ARGV[2], ARGV[3]
local k = P .. 'r:' .. corr
local r = redis.call('HMGET', k, s .. ':o', s .. ':d')
if r[1] ~= owner or r[2] then return 0 end
redis.call('HDEL', k, s .. ':o', s .. ':u', s .. ':c')
redis.call('ZREM', P .. 'results', corr .. '\\n' .. s)
return 1`,
  claimOpen: `local before, since, limit, owner, now, nowText, untilText = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]), ARGV[5], ARGV[6]
local out = {}
local offset = 0
while #out < limit do
  local ids = redis.call('ZRANGEBYSCORE', P .. 'open', '-inf', before, 'LIMIT', offset, 100)
  if #ids == 0 then break end
  offset = offset + #ids
  for _, id in ipairs(ids) do
    local b = redis.call('HMGET', P .. 'b:' .. id, 'data', 'cu', 'ca')
    if b[1] and tonumber(b[2]) < now and tonumber(b[3]) < since then
      redis.call('HSET', P .. 'b:' .. id, 'co', owner, 'cu', untilText, 'ca', nowText)
      out[#out + 1] = b[1]
      if #out >= limit then break end
    end
  end
end
return out`,
  releaseCheck: `if redis.call('HGET', P .. 'b:' .. ARGV[1], 'co') == ARGV[2] then redis.call('HSET', P .. 'b:' .. ARGV[1], 'cu', '0') end
return 0`,
  prune: `local before = '(' .. ARGV[1]
local gone = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'created', '-inf', before)) do
  local b = redis.call('HMGET', P .. 'b:' .. id, 'key', 'corr', 'order')
  if b[1] then
    redis.call('DEL', P .. 'b:' .. id, P .. 'k:' .. b[1], P .. 'c:' .. b[2])
    redis.call('ZREM', P .. 'o:' .. b[3], id)
    gone = gone + 1
  end
  redis.call('ZREM', P .. 'open', id)
  redis.call('ZREM', P .. 'created', id)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', P .. 'results', '-inf', before)) do
  local corr, s = string.match(member, '^(.*)\\n([^\\n]*)$')
  redis.call('HDEL', P .. 'r:' .. corr, s .. ':o', s .. ':u', s .. ':d', s .. ':c')
  redis.call('ZREM', P .. 'results', member)
end
for _, name in ipairs(redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', before)) do
  redis.call('DEL', P .. 'l:' .. name)
  redis.call('ZREM', P .. 'leases', name)
end
return gone`,
} as const;

type ScriptName = keyof typeof SCRIPTS;

/**
 * Creates a Redis-backed {@link PaymentStore}: `createRedisStore(new Redis(url))` with `ioredis` (or
 * `iovalkey`). Nothing needs creating; the store writes its data version on first use and refuses
 * data a newer version of this code wrote.
 */
export function createRedisStore(client: RedisScripting, options: RedisStoreOptions = {}): RedisStore {
  if (!client || typeof client.evalsha !== 'function' || typeof client.eval !== 'function') {
    throw new TypeError('createRedisStore needs an ioredis (or iovalkey) client: an object with evalsha and eval.');
  }
  const prefix = options.keyPrefix ?? '{wpb}:';
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    throw new TypeError(`keyPrefix must hold a hash tag such as {wpb} and no spaces (every key of the store on one Cluster node); got ${JSON.stringify(prefix)}.`);
  }
  const deadlineMs = checkDeadline(options.deadlineMs ?? 5_000);
  const scripts = new Map<ScriptName, { text: string; sha: string }>();
  for (const [name, body] of Object.entries(SCRIPTS) as Array<[ScriptName, string]>) {
    const text = `${COMMON}\n${body}`;
    scripts.set(name, { text, sha: createHash('sha1').update(text).digest('hex') });
  }
  let setUp: Promise<void> | undefined;
  let isSetUp = false;

  /** Runs a script by its SHA-1, sending it whole when the server does not have it (a restart flushes the script cache). */
  async function evaluate(name: ScriptName, args: Array<string | number>): Promise<unknown> {
    const script = scripts.get(name)!;
    try {
      return await client.evalsha(script.sha, 1, prefix, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !/NOSCRIPT/.test(error.message)) throw error;
      return client.eval(script.text, 1, prefix, ...args);
    }
  }

  async function prepare(): Promise<void> {
    const version = Number(await evaluate('version', [REDIS_DATA_VERSION]));
    if (version !== REDIS_DATA_VERSION) {
      throw new Error(
        version > REDIS_DATA_VERSION
          ? `The payment store's keys (${prefix}*) have data version ${version}; this code reads version ${REDIS_DATA_VERSION}.`
          : `The payment store's keys (${prefix}*) have data version ${version}; this code reads version ${REDIS_DATA_VERSION} and cannot migrate them.`,
      );
    }
  }

  function ready(): Promise<void> {
    setUp ??= prepare().then(
      () => {
        isSetUp = true;
      },
      (error: unknown) => {
        setUp = undefined; // a server that was down at start-up is tried again on the next call
        throw error;
      },
    );
    return setUp;
  }

  async function run(name: ScriptName, args: Array<string | number>): Promise<unknown> {
    return withinDeadline(
      async () => {
        if (!isSetUp) await ready();
        return evaluate(name, args);
      },
      deadlineMs,
      unavailable,
    );
  }

  const booking = (reply: unknown): StoredBooking | undefined => (typeof reply === 'string' ? (JSON.parse(reply) as StoredBooking) : undefined);
  /** An order's bookings as the scripts list them: the booking, settled, paid, for each. */
  const orderState = (flat: unknown[]) => {
    const open: StoredBooking[] = [];
    let paid: StoredBooking | undefined;
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const b = booking(flat[i])!;
      if (flat[i + 1] !== '1') open.push(b);
      if (flat[i + 2] === '1' && !paid) paid = b;
    }
    return { open, paid };
  };

  return {
    ready: () => withinDeadline(ready, deadlineMs, unavailable),
    getBookingByKey: async (key) => booking(await run('byIndex', ['k:', key])),
    getBooking: async (bookingId) => booking(await run('byId', [bookingId])),
    findBookingByCorrelationId: async (correlationId) => booking(await run('byIndex', ['c:', correlationId])),
    async insertBooking(b, release) {
      const data = JSON.stringify(copyOf(b));
      const saved = await run('insert', [b.booking_id, b.idempotency_key, b.correlation_id, b.order_key, b.created_at, data, release?.lease ?? '', release?.owner ?? '']);
      return Number(saved) === 1;
    },
    async beginBooking({ key, orderKey, lease, owner, now, until }): Promise<BookingOpening> {
      const [status, ...rest] = (await run('begin', [key, orderKey, lease, owner, now, until])) as unknown[];
      if (status === 'booked') return { status: 'booked', booking: booking(rest[0])! };
      if (status === 'busy') return { status: 'busy' };
      return { status: 'leased', order: orderState(rest) };
    },
    async getBookingState(bookingId) {
      const reply = (await run('bookingState', [bookingId])) as unknown[] | null;
      if (!Array.isArray(reply)) return undefined;
      const [data, ...delivered] = reply;
      return { booking: booking(data)!, delivered: delivered as PaymentStatus[] };
    },
    getOrderState: async (orderKey) => orderState((await run('orderState', [orderKey])) as unknown[]),
    acquireLease: async (name, owner, now, until) => Number(await run('acquire', [name, owner, now, until])) === 1,
    async releaseLease(name, owner) {
      await run('release', [name, owner]);
    },
    claimResult: async (correlationId, status, owner, now, until) => (await run('claim', [correlationId, status, owner, now, until])) as ResultClaim,
    async completeResult(correlationId, status, owner, now) {
      await run('complete', [correlationId, status, owner, now, status !== 'BOOKED' && status !== 'PENDING' ? '1' : '0']);
    },
    async releaseResult(correlationId, status, owner) {
      await run('releaseResult', [correlationId, status, owner]);
    },
    async claimOpenBookings({ createdBefore, notCheckedSince, limit, owner, now, until }: OpenBookingClaim) {
      const reply = (await run('claimOpen', [createdBefore, notCheckedSince, limit, owner, now, until])) as unknown[];
      return reply.map((item) => booking(item)!);
    },
    async releaseCheck(bookingId, owner) {
      await run('releaseCheck', [bookingId, owner]);
    },
    prune: async (before) => Number(await run('prune', [before])),
  };
}

/** The booking's own fields, nothing more: what is stored is what is read back. */
function copyOf(b: StoredBooking): StoredBooking {
  const { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order, order_key, amount, deeplink, created_at } = b;
  return { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order, order_key, amount, deeplink, created_at };
}

// What ioredis reports when the server cannot be reached, dropped the connection, or is loading its
// data after a restart (LOADING) or refusing writes (a replica, or a failed fsync: MISCONF).
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNREACHABLE_TEXT = /connection is closed|stream isn't writeable|max retries per request|^LOADING|^MISCONF|^READONLY|^MASTERDOWN|^CLUSTERDOWN|^TRYAGAIN|connect ETIMEDOUT|ECONNREFUSED|ECONNRESET/i;

/** The {@link StoreUnavailableError} for a client's error that means "late" or "gone"; undefined for any other. */
function unavailable(error: unknown): StoreUnavailableError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (/^BUSY/.test(error.message)) {
    return new StoreUnavailableError('deadline', `The payment store's Redis server is busy with a script: ${error.message}`, { cause: error });
  }
  if ((typeof code === 'string' && UNREACHABLE_CODES.has(code)) || UNREACHABLE_TEXT.test(error.message) || error.name === 'MaxRetriesPerRequestError') {
    return new StoreUnavailableError('unreachable', `The payment store's Redis server cannot be reached: ${error.message}`, { cause: error });
  }
  return undefined;
}
