// Vite's `build()` sets `process.env.NODE_ENV` to "production" in the calling process when it is
// unset, and leaves it set: everything that runs in that process afterwards believes it is a
// production server (`npm run bench` builds, then runs the payment handler on the memory store, which
// then warns of production). `viteBuild` runs a build with NODE_ENV (and Vite's VITE_USER_NODE_ENV)
// scoped to it: the build still sees production, the process gets its own values back. Every
// in-process Vite build of the scripts and the benchmark goes through it.

const SCOPED = ['NODE_ENV', 'VITE_USER_NODE_ENV'];
let running = 0;
/** @type {Record<string, string | undefined>} */
let saved = {};

/** Vite's `build(config)`, with NODE_ENV restored when the last overlapping build ends. */
export async function viteBuild(config) {
  const { build } = await import('vite');
  if (running++ === 0) saved = Object.fromEntries(SCOPED.map((name) => [name, process.env[name]]));
  try {
    return await build(config);
  } finally {
    if (--running === 0) {
      for (const name of SCOPED) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  }
}
