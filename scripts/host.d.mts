/** Whether this process runs as root. */
export function isRoot(): boolean;
/** Whether missing programs may be installed here: Debian, as root, with apt-get. */
export function canInstallWithApt(): boolean;
/** Installs Debian packages with apt-get (non-interactive, waiting for apt's lock): ensure-apt.mjs's. */
export function aptInstall(packages: string[], options?: { recommends?: boolean }): void;
/** Finds a program, installing Debian's packages when possible; throws an error naming the fixes otherwise. */
export function findOrInstall<T>(options: {
  find: () => T | undefined;
  label: string;
  packages: string[];
  fixes: string[];
  log?: (line: string) => void;
  /** Whether apt-get may be used; default canInstallWithApt. */
  canInstall?: () => boolean;
}): T;
/** The ports the system hands out itself (Linux's ip_local_port_range, else the IANA range). */
export function ephemeralPorts(read?: () => string): { low: number; high: number };
/** A port free on 127.0.0.1 right now, outside the ports the system hands out itself (`range`, read from the system by default). */
export function freePort(range?: { low: number; high: number }): Promise<number>;
/** Whether a server could listen on `port` of 127.0.0.1 now. */
export function canListen(port: number): Promise<boolean>;
/** As root, gives `dir` to the system user `user`. */
export function giveToServerUser(dir: string, user: string): void;
