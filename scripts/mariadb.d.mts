/** The paths of mariadbd and mariadb-install-db ($MARIADB_BIN's, Debian's), or undefined. */
export function findMariadb(): { server: string; install: string } | undefined;
/** Finds MariaDB, installing Debian's package when possible; throws a helpful error otherwise. */
export function ensureMariadb(options?: { log?: (line: string) => void }): { server: string; install: string };
/** The server's version line. */
export function mariadbVersion(server?: string): string;
/** A running throwaway MariaDB server. */
export interface ThrowawayMariadb {
  /** `mysql://root@127.0.0.1:{port}/` (no passwords: grant tables skipped). */
  uri: string;
  port: number;
  /** Shuts the server down and removes its data folder. */
  stop(): Promise<void>;
  /** Shuts the server down (SIGTERM: a clean shutdown, open connections closed), keeping its data. */
  pause(): Promise<void>;
  /** Kills the server (SIGKILL), keeping its data. */
  kill(): Promise<void>;
  /** Starts a paused or killed server again, on the same port with the same data. */
  resume(): Promise<void>;
}
/**
 * Starts a throwaway MariaDB server on 127.0.0.1 (free port, temporary data folder). `durable`: every
 * commit flushed before it is acknowledged (`innodb_flush_log_at_trx_commit=1`); default off, for speed.
 */
export function startMariadb(options?: { log?: (line: string) => void; durable?: boolean }): Promise<ThrowawayMariadb>;
