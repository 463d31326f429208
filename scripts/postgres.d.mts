/** Returns the folder holding initdb and postgres ($POSTGRES_BIN, Debian's, pg_config's), or undefined. */
export function findPostgres(): string | undefined;
/** Finds PostgreSQL, installing Debian's package when possible; throws a helpful error otherwise. */
export function ensurePostgres(options?: { log?: (line: string) => void }): string;
/** A running throwaway PostgreSQL server. */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:{port}/postgres` (trust authentication). */
  url: string;
  port: number;
  /** Shuts the server down and removes its data folder. */
  stop(): Promise<void>;
  /** Shuts the server down (a fast shutdown: open connections are closed), keeping its data. */
  pause(): Promise<void>;
  /** Starts a paused server again, on the same port with the same data. */
  resume(): Promise<void>;
}
/** Starts a throwaway PostgreSQL server on 127.0.0.1 (free port, temporary data folder). */
export function startPostgres(options?: { log?: (line: string) => void }): Promise<ThrowawayPostgres>;
