/** Fills `data` with a copy of a data folder initialised once by `init` (a template in the temporary folder). */
export function copyOfInitialised(options: {
  name: string;
  /** The initialising program's path first, then its options: a new key makes a new template. */
  key: string[];
  init: (folder: string) => void;
  data: string;
  user: string;
}): void;
/** One throwaway server process: started until its ready line, stopped by a signal, started again. */
export interface ServerProcess {
  launch(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  resume(): Promise<void>;
}
export function serverProcess(options: {
  command: string;
  args: string[];
  name: string;
  ready: RegExp;
  readyWithinMs?: number;
  log?: (line: string) => void;
  signalServer?: (signal: NodeJS.Signals, child: import('node:child_process').ChildProcess) => void;
}): ServerProcess;
/** stop (removing `dir`), pause, kill and resume of a throwaway server. */
export function throwawayControls(
  server: ServerProcess,
  dir: string,
  stopSignal?: NodeJS.Signals,
): { stop(): Promise<void>; pause(): Promise<void>; kill(): Promise<void>; resume(): Promise<void> };
