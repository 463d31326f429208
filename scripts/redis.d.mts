/** The path of redis-server or valkey-server ($REDIS_SERVER, the usual places), or undefined. */
export function findRedis(): string | undefined;
/** Finds Redis, installing Debian's package when possible; throws a helpful error otherwise. */
export function ensureRedis(options?: { log?: (line: string) => void }): string;
/** The server's version line. */
export function redisVersion(server?: string): string;
/** A running throwaway Redis server (append-only file, fsynced on every write, no snapshots). */
export interface ThrowawayRedis {
  /** `redis://127.0.0.1:{port}`. */
  url: string;
  port: number;
  /** Shuts the server down and removes its data folder. */
  stop(): Promise<void>;
  /** Shuts the server down (SIGTERM), keeping its data. */
  pause(): Promise<void>;
  /** Kills the server (SIGKILL), keeping its data: what it acknowledged must be there on resume. */
  kill(): Promise<void>;
  /** Starts a paused or killed server again, on the same port with the same data. */
  resume(): Promise<void>;
}
/** Starts a throwaway Redis server on 127.0.0.1 (free port, temporary data folder, durable settings). */
export function startRedis(options?: { log?: (line: string) => void }): Promise<ThrowawayRedis>;
