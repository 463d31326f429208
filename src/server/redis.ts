/**
 * `wallet-pay-button/server/redis`: a {@link PaymentStore} on Redis (or Valkey), shared by any number
 * of handler processes. It needs only `evalsha`, `eval` and `script` as `ioredis` (or `iovalkey`) answers them;
 * neither is a dependency of this package.
 *
 * Every call is one Lua script, run atomically by the server: the order lease, the result claims and
 * a booking saved with its lease's end each happen whole or not at all, in one round trip. Scripts
 * are loaded when the store starts and run by their SHA-1 (`EVALSHA`); a server that restarted and
 * forgot them is sent each once more.
 *
 * Durability is the server's: only with `appendonly yes` and `appendfsync always` does a write the
 * store acknowledged survive a crash of the Redis server (see docs/server.md).
 */
import type { PaymentStatus } from '../protocol/contract.js';
import { PREVIOUS_PROVIDER } from './sql-rows.js';
import { checkDeadline, withinDeadline } from './store-deadline.js';
import { setUpOnce } from './store-setup.js';
import { StoreUnavailableError } from './store-errors.js';
import type { BookingInsertion, BookingOpening, KnownResult, PaymentStore, ResultClaim, ResultClaimAnswer, StoredBooking } from './store.js';

/** What the store needs of a Redis client: an `ioredis` or `iovalkey` client (standalone or Cluster) fits. */
export interface RedisScripting {
  evalsha(sha1: string, numberOfKeys: number, ...args: Array<string | number>): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...args: Array<string | number>): Promise<unknown>;
  script(subcommand: 'LOAD', script: string): Promise<unknown>;
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
  /** Writes the data version when missing or older (see {@link REDIS_DATA_VERSION}) and refuses a newer one. Every method awaits it first. */
  ready(): Promise<void>;
}

/**
 * The layout of keys this code reads and writes. Version 2 names each booking's provider in its JSON;
 * a version-1 booking (none named) reads as `'esewa-intent'` with no provider data, so opening
 * version-1 keys moves them to version 2 without rewriting a booking. Version 3 keeps the bookings
 * settled `CANCELED` by when (`canceled`), for reconcile's recheck of them; those cancelled before it
 * are not rechecked, and nothing is rewritten.
 */
export const REDIS_DATA_VERSION = 3;

const PREFIX = /^[^\s]*\{[^{}\s]+\}[^\s]*$/;

// Shared by the scripts. Keys: P..'b:'..id a booking (hash: data, the booking's JSON; settled; key,
// corr, order; co/cu/ca the check claim's owner, end and time), P..'k:'..key and P..'c:'..corr its
// id, P..'o:'..order its order's ids (sorted by creation), P..'open' and P..'created' (ids by
// creation), P..'canceled' (ids whose last final result delivered is a CANCELED, by then), P..'r:'..corr its results (hash: status..':o' owner, ':u' claim end, ':d' delivered at,
// ':c' first claimed), P..'results' (corr..'\n'..status by creation), P..'l:'..name a lease (owner,
// until, token), P..'leases' (names by end), P..'tokens' (the last fencing token). Lease and claim
// times are the server's clock (TIME).
const COMMON = `
local P = KEYS[1]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function text(n) return string.format('%.0f', n) end
-- Free, ended or the caller's own: taken under a new token from one counter (so never a token twice).
local function take_lease(name, owner, leaseMs, now)
  local held = redis.call('HMGET', P .. 'l:' .. name, 'owner', 'until')
  if held[1] and held[1] ~= owner and tonumber(held[2]) >= now then return false end
  local token = redis.call('INCR', P .. 'tokens')
  local untilText = text(now + leaseMs)
  redis.call('HSET', P .. 'l:' .. name, 'owner', owner, 'until', untilText, 'token', token)
  redis.call('ZADD', P .. 'leases', untilText, name)
  return token
end
-- A hold is current while it is the lease's and the lease has not ended: an ended one is revived by nothing.
local function is_current(name, owner, token)
  local held = redis.call('HMGET', P .. 'l:' .. name, 'owner', 'token', 'until')
  return held[1] == owner and held[2] == token and tonumber(held[3]) >= now_ms()
end
local function end_lease(name)
  redis.call('DEL', P .. 'l:' .. name)
  redis.call('ZREM', P .. 'leases', name)
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
local function known_results(corr)
  local out = {}
  local fields = redis.call('HGETALL', P .. 'r:' .. corr)
  local delivered = {}
  for i = 1, #fields, 2 do
    local status = string.match(fields[i], '^(.*):d$')
    if status then delivered[status] = true end
  end
  for i = 1, #fields, 2 do
    local status = string.match(fields[i], '^(.*):o$')
    if status then
      out[#out + 1] = status
      out[#out + 1] = delivered[status] and 'delivered' or 'claimed'
    end
  end
  return out
end
`;

const SCRIPTS = {
  version: `local v = redis.call('HGET', P .. 'meta', 'version')
if not v or tonumber(v) < tonumber(ARGV[1]) then redis.call('HSET', P .. 'meta', 'version', ARGV[1]) return ARGV[1] end
return v`,
  byIndex: `local id = redis.call('GET', P .. ARGV[1] .. ARGV[2])
if not id then return false end
return redis.call('HGET', P .. 'b:' .. id, 'data')`,
  insert: `local id, key, corr, order, head, lease, owner, token = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
-- Created by the server's clock (TIME), as every lease: the JSON's last field is written here.
local created = text(now_ms())
local data = head .. created .. '}'
local fresh = lease == '' or is_current(lease, owner, token)
if lease ~= '' and fresh then end_lease(lease) end
if redis.call('EXISTS', P .. 'k:' .. key) == 1 or redis.call('EXISTS', P .. 'b:' .. id) == 1 or redis.call('EXISTS', P .. 'c:' .. corr) == 1 then return 'taken' end
if not fresh then return 'stale' end
redis.call('HSET', P .. 'b:' .. id, 'data', data, 'settled', '0', 'key', key, 'corr', corr, 'order', order, 'co', '', 'cu', '0', 'ca', '0')
redis.call('SET', P .. 'k:' .. key, id)
redis.call('SET', P .. 'c:' .. corr, id)
redis.call('ZADD', P .. 'o:' .. order, created, id)
redis.call('ZADD', P .. 'open', created, id)
redis.call('ZADD', P .. 'created', created, id)
return 'saved'`,
  begin: `local key, order, lease, owner, leaseMs = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local id = redis.call('GET', P .. 'k:' .. key)
if id then return {'booked', redis.call('HGET', P .. 'b:' .. id, 'data')} end
local token = take_lease(lease, owner, leaseMs, now_ms())
if not token then return {'busy'} end
local out = order_state(order)
table.insert(out, 1, token)
table.insert(out, 1, 'leased')
return out`,
  acquire: `local token = take_lease(ARGV[1], ARGV[2], tonumber(ARGV[3]), now_ms())
if not token then return false end
return token`,
  renew: `local lease, owner, token, leaseMs = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
if not is_current(lease, owner, token) then return 0 end
local untilText = text(now_ms() + leaseMs)
redis.call('HSET', P .. 'l:' .. lease, 'until', untilText)
redis.call('ZADD', P .. 'leases', untilText, lease)
return 1`,
  release: `local held = redis.call('HMGET', P .. 'l:' .. ARGV[1], 'owner', 'token')
if held[1] == ARGV[2] and held[2] == ARGV[3] then end_lease(ARGV[1]) end
return 0`,
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
  claim: `local corr, s, owner, leaseMs, lease, holder, token, judge = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local k = P .. 'r:' .. corr
local id = redis.call('GET', P .. 'c:' .. corr)
local b = id and redis.call('HMGET', P .. 'b:' .. id, 'data', 'order') or {}
local data = b[1] or ''
local known = known_results(corr)
local r = redis.call('HMGET', k, s .. ':o', s .. ':u', s .. ':d')
if r[3] then return {'delivered', data, known} end
if lease ~= '' and not is_current(lease, holder, token) then return {'stale', data, known} end
local now = now_ms()
if r[1] and r[1] ~= owner and tonumber(r[2]) >= now then return {'busy', data, known} end
local order = {}
if judge == '1' and b[2] then
  -- The script runs alone: the order's state read here is the one this claim is judged by.
  local paid = redis.call('HMGET', P .. 'l:paid:' .. b[2], 'owner', 'until')
  if paid[1] and paid[1] ~= owner and tonumber(paid[2]) >= now then return {'busy', data, known} end
  order = {'1'}
  for _, field in ipairs(order_state(b[2])) do order[#order + 1] = field end
end
if not r[1] then
  redis.call('HSET', k, s .. ':c', text(now))
  redis.call('ZADD', P .. 'results', text(now), corr .. '\\n' .. s)
end
redis.call('HSET', k, s .. ':o', owner, s .. ':u', text(now + leaseMs))
return {'claimed', data, known, order}`,
  complete: `local corr, s, owner, final = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local k = P .. 'r:' .. corr
local r = redis.call('HMGET', k, s .. ':o', s .. ':d')
if r[1] ~= owner or r[2] then return 0 end
redis.call('HSET', k, s .. ':d', text(now_ms()))
if final == '1' then
  local id = redis.call('GET', P .. 'c:' .. corr)
  if id then
    redis.call('HSET', P .. 'b:' .. id, 'settled', '1')
    redis.call('ZREM', P .. 'open', id)
    if s == 'CANCELED' then redis.call('ZADD', P .. 'canceled', text(now_ms()), id) else redis.call('ZREM', P .. 'canceled', id) end
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
  results: `return known_results(ARGV[1])`,
  claimOpen: `local olderThanMs, notCheckedMs, limit, owner, leaseMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local now = now_ms()
local before = text(now - olderThanMs)
local out = {}
local offset = 0
-- Open bookings by creation; or, with ARGV[6], those cancelled since then by their cancel, of the age asked.
local recheck = ARGV[6] ~= ''
while #out < limit do
  local ids = recheck and redis.call('ZRANGEBYSCORE', P .. 'canceled', '(' .. text(now - tonumber(ARGV[6])), '+inf', 'LIMIT', offset, 100)
    or redis.call('ZRANGEBYSCORE', P .. 'open', '-inf', before, 'LIMIT', offset, 100)
  if #ids == 0 then break end
  offset = offset + #ids
  for _, id in ipairs(ids) do
    local b = redis.call('HMGET', P .. 'b:' .. id, 'data', 'cu', 'ca')
    local old = not recheck or tonumber(redis.call('ZSCORE', P .. 'created', id) or now + 1) <= tonumber(before)
    if b[1] and old and tonumber(b[2]) < now and tonumber(b[3]) <= now - notCheckedMs then
      redis.call('HSET', P .. 'b:' .. id, 'co', owner, 'cu', text(now + leaseMs), 'ca', text(now))
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
    -- Its results go with it, whenever they were claimed.
    local fields = redis.call('HKEYS', P .. 'r:' .. b[2])
    for _, field in ipairs(fields) do
      local s = string.match(field, '^(.*):c$')
      if s then redis.call('ZREM', P .. 'results', b[2] .. '\\n' .. s) end
    end
    redis.call('DEL', P .. 'r:' .. b[2])
    gone = gone + 1
  end
  redis.call('ZREM', P .. 'open', id)
  redis.call('ZREM', P .. 'created', id)
  redis.call('ZREM', P .. 'canceled', id)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', P .. 'results', '-inf', before)) do
  local corr, s = string.match(member, '^(.*)\\n([^\\n]*)$')
  redis.call('HDEL', P .. 'r:' .. corr, s .. ':o', s .. ':u', s .. ':d', s .. ':c')
  redis.call('ZREM', P .. 'results', member)
end
local ended = '(' .. text(math.min(tonumber(ARGV[1]), now_ms()))
for _, name in ipairs(redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', ended)) do end_lease(name) end
return gone`,
} as const;

type ScriptName = keyof typeof SCRIPTS;

/** What the store's methods run on: the scripts loaded once, then each run under the deadline. */
interface ScriptRunner {
  /** Loads the scripts and checks the data version (once). */
  ready(): Promise<void>;
  /** One script, one round trip, under the deadline. */
  run(name: ScriptName, args: Array<string | number>): Promise<unknown>;
}

function scriptRunner(client: RedisScripting, prefix: string, deadlineMs: number): ScriptRunner {
  // Each script's text, and its SHA-1 once the server loaded it (SCRIPT LOAD answers it).
  const scripts = new Map<ScriptName, { text: string; sha?: string }>();
  for (const [name, body] of Object.entries(SCRIPTS) as Array<[ScriptName, string]>) scripts.set(name, { text: `${COMMON}\n${body}` });

  /** Runs a script by its SHA-1, sending it whole when the server does not have it (a restart flushes the script cache). */
  async function evaluate(name: ScriptName, args: Array<string | number>): Promise<unknown> {
    const script = scripts.get(name)!;
    if (script.sha === undefined) return client.eval(script.text, 1, prefix, ...args);
    try {
      return await client.evalsha(script.sha, 1, prefix, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !/NOSCRIPT/.test(error.message)) throw error;
      return client.eval(script.text, 1, prefix, ...args);
    }
  }

  async function prepare(): Promise<void> {
    // Every script at once, so that no call pays for sending its script; a server that restarts
    // forgets them, and each is sent once more on its next use.
    await Promise.all(
      [...scripts.values()].map(async (script) => {
        script.sha = String(await client.script('LOAD', script.text));
      }),
    );
    // The script writes this version over a missing or older one (in one step, so stores opening at
    // once agree), and answers a newer one, which is refused.
    const version = await evaluate('version', [REDIS_DATA_VERSION]);
    if (Number(version) !== REDIS_DATA_VERSION) {
      throw new Error(`The payment store's keys (${prefix}*) have data version ${String(version)}; this code reads version ${REDIS_DATA_VERSION}.`);
    }
  }

  const setUp = setUpOnce(prepare);

  async function run(name: ScriptName, args: Array<string | number>): Promise<unknown> {
    return withinDeadline(
      async () => {
        if (!setUp.done) await setUp.ready();
        return evaluate(name, args);
      },
      deadlineMs,
      unavailable,
    );
  }

  return { ready: () => withinDeadline(setUp.ready, deadlineMs, unavailable), run };
}

/**
 * Creates a Redis-backed {@link PaymentStore}: `createRedisStore(new Redis(url))` with `ioredis` (or
 * `iovalkey`). Nothing needs creating; the store writes its data version on first use (moving an older
 * one to it) and refuses data a newer version of this code wrote.
 */
export function createRedisStore(client: RedisScripting, options: RedisStoreOptions = {}): RedisStore {
  if (!client || typeof client.evalsha !== 'function' || typeof client.eval !== 'function' || typeof client.script !== 'function') {
    throw new TypeError('createRedisStore needs an ioredis (or iovalkey) client: an object with evalsha, eval and script.');
  }
  const prefix = options.keyPrefix ?? '{wpb}:';
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    throw new TypeError(`keyPrefix must hold a hash tag such as {wpb} and no spaces (every key of the store on one Cluster node); got ${JSON.stringify(prefix)}.`);
  }
  const { ready, run } = scriptRunner(client, prefix, checkDeadline(options.deadlineMs ?? 5_000));
  const booking = (reply: unknown): StoredBooking | undefined => (typeof reply === 'string' ? withProvider(JSON.parse(reply) as StoredBooking) : undefined);
  /** A booking's results as the scripts list them: status, then `claimed` or `delivered`, for each. */
  const knownOf = (flat: string[]) => {
    const known: KnownResult[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) known.push({ status: flat[i] as PaymentStatus, state: flat[i + 1] === 'delivered' ? 'delivered' : 'claimed' });
    return known;
  };
  /** An order's bookings as the scripts list them: the booking, settled, paid, for each. */
  const orderState = (flat: unknown[]) => {
    const open: StoredBooking[] = [];
    const paid: StoredBooking[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const b = booking(flat[i])!;
      if (flat[i + 1] !== '1') open.push(b);
      if (flat[i + 2] === '1') paid.push(b);
    }
    // One still being delivered before a settled one; `paidAmount` counts every paid one, and
    // `paidOpen` names those the book must not count again.
    const paidOpen = paid.filter((b) => open.includes(b));
    return {
      open,
      paid: paidOpen[0] ?? paid[0],
      paidAmount: paid.reduce((sum, b) => sum + Math.round(b.amount * 100), 0) / 100,
      paidOpen: paidOpen.map((b) => b.booking_id),
    };
  };

  return {
    ready,
    getBookingByKey: async ({ key }) => booking(await run('byIndex', ['k:', key])),
    findBookingByCorrelationId: async ({ correlationId }) => booking(await run('byIndex', ['c:', correlationId])),
    async insertBooking({ booking: b, hold }) {
      // The script closes the JSON with created_at by the server's clock.
      const { created_at: _, ...fields } = copyOf(b);
      const head = `${JSON.stringify(fields).slice(0, -1)},"created_at":`;
      const args = [b.booking_id, b.idempotency_key, b.correlation_id, b.order_key, head, hold?.lease ?? '', hold?.owner ?? '', hold?.token ?? ''];
      return (await run('insert', args)) as BookingInsertion;
    },
    async beginBooking({ key, orderKey, lease, owner, leaseMs }): Promise<BookingOpening> {
      const [status, ...rest] = (await run('begin', [key, orderKey, lease, owner, Math.ceil(leaseMs)])) as unknown[];
      if (status === 'booked') return { status: 'booked', booking: booking(rest[0])! };
      if (status === 'busy') return { status: 'busy' };
      const [token, ...order] = rest;
      return { status: 'leased', token: Number(token), order: orderState(order) };
    },
    async acquireLease({ lease, owner, leaseMs }) {
      const token = await run('acquire', [lease, owner, Math.ceil(leaseMs)]);
      return token === null || token === undefined ? undefined : Number(token);
    },
    renewLease: async ({ lease, owner, token, leaseMs }) => Number(await run('renew', [lease, owner, token, Math.ceil(leaseMs)])) === 1,
    async releaseLease({ lease, owner, token }) {
      await run('release', [lease, owner, token]);
    },
    async getBookingState({ bookingId }) {
      const reply = (await run('bookingState', [bookingId])) as unknown[] | null;
      if (!Array.isArray(reply)) return undefined;
      const [data, ...delivered] = reply;
      return { booking: booking(data)!, delivered: delivered as PaymentStatus[] };
    },
    getOrderState: async ({ orderKey }) => orderState((await run('orderState', [orderKey])) as unknown[]),
    async claimResult({ correlationId, status, owner, leaseMs, hold, judge }): Promise<ResultClaimAnswer> {
      const args = [correlationId, status, owner, Math.ceil(leaseMs), hold?.lease ?? '', hold?.owner ?? '', hold?.token ?? '', judge ? '1' : '0'];
      const [claim, data, known, order] = (await run('claim', args)) as [ResultClaim, string, string[], string[] | undefined];
      return {
        claim,
        booking: booking(data === '' ? undefined : data),
        known: knownOf(known),
        // A judged order's list starts with a mark, so that an order read with no bookings is told from none read.
        ...(order && order.length > 0 && { order: orderState(order.slice(1)) }),
      };
    },
    async completeResult({ correlationId, status, owner }) {
      await run('complete', [correlationId, status, owner, status !== 'BOOKED' && status !== 'PENDING' ? '1' : '0']);
    },
    async releaseResult({ correlationId, status, owner }) {
      await run('releaseResult', [correlationId, status, owner]);
    },
    getResults: async ({ correlationId }) => knownOf((await run('results', [correlationId])) as string[]),
    async claimOpenBookings({ olderThanMs, notCheckedForMs, limit, owner, leaseMs, canceledWithinMs }) {
      const canceled = canceledWithinMs === undefined ? '' : Math.ceil(canceledWithinMs);
      const reply = (await run('claimOpen', [Math.ceil(olderThanMs), Math.ceil(notCheckedForMs), limit, owner, Math.ceil(leaseMs), canceled])) as unknown[];
      return reply.map((item) => booking(item)!);
    },
    async releaseCheck({ bookingId, owner }) {
      await run('releaseCheck', [bookingId, owner]);
    },
    prune: async ({ before }) => Number(await run('prune', [before])),
  };
}

/** A booking as saved; one saved by a version-1 store names no provider, and was made by the previous release's only one. */
function withProvider(saved: Partial<Pick<StoredBooking, 'provider' | 'provider_data'>> & Omit<StoredBooking, 'provider' | 'provider_data'>): StoredBooking {
  return { ...saved, provider: saved.provider ?? PREVIOUS_PROVIDER, provider_data: saved.provider_data ?? '' };
}

/** The booking's own fields, nothing more: what is stored is what is read back. */
function copyOf(b: StoredBooking): StoredBooking {
  const { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order, order_key, amount, deeplink, provider, provider_data, created_at } = b;
  return { booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order, order_key, amount, deeplink, provider, provider_data, created_at };
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
