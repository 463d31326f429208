/**
 * Bundles a worker as wrangler does for `wrangler dev` and `wrangler deploy`: one ES module, the
 * package's `workerd`/`worker`/`browser` conditions, Node built-ins and `cloudflare:` modules left to
 * the runtime (the `nodejs_compat` flag provides the former).
 */
import { builtinModules } from 'node:module';
import { rolldown, type Plugin } from 'rolldown';

const NODE_BUILTINS = new Set(builtinModules);

/**
 * CommonJS packages (pg) `require()` built-ins, and an ES module worker has no `require`: each one
 * required becomes an import of the `node:` module, and `require` looks it up (wrangler's esbuild
 * plugin for `nodejs_compat` does the same).
 */
const requireBuiltins: Plugin = {
  name: 'require-builtins',
  renderChunk(code) {
    // Only built-ins: an optional package left out of the bundle (pg-native) stays "not found".
    const names = [...new Set([...code.matchAll(/__require\("([^"]+)"\)/g)].map((m) => m[1]!))].filter((name) => NODE_BUILTINS.has(name.replace(/^node:/, '')));
    if (names.length === 0) return null;
    const imports = names.map((name, i) => `import * as __builtin${i} from ${JSON.stringify(name.startsWith('node:') ? name : `node:${name}`)};`).join('\n');
    const table = names.map((name, i) => `${JSON.stringify(name)}: __builtin${i}`).join(', ');
    // CommonJS sees a built-in's default export when it carries every named one (Node's shape),
    // else the namespace (workerd's node:events default lacks `.EventEmitter`).
    return `${imports}
const __builtins = { ${table} };
function require(name) {
  const ns = __builtins[name];
  if (!ns) throw new Error('Cannot find module ' + name);
  const d = ns.default;
  return d && Object.keys(ns).every((key) => key === 'default' || key in d) ? d : ns;
}
${code}`;
  },
};

/** Writes `entry` bundled to `outFile`. */
export async function bundleWorker(entry: string, outFile: string): Promise<void> {
  const bundle = await rolldown({
    input: entry,
    platform: 'neutral',
    resolve: { conditionNames: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'] },
    external: (id) => id.startsWith('node:') || id.startsWith('cloudflare:') || NODE_BUILTINS.has(id),
    plugins: [requireBuiltins],
    logLevel: 'warn',
  });
  try {
    await bundle.write({ file: outFile, format: 'esm' });
  } finally {
    await bundle.close();
  }
}
