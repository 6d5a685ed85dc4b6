// A service's production build (`pnpm build` in services/<name>): src/main.ts and everything it imports,
// workspace packages and dependencies alike, as ES modules in dist/: dist/main.js, plus a chunk in
// dist/chunks/ for each part only reached through a dynamic `import()` (the OpenTelemetry SDK, nodemailer),
// which Node reads and compiles only when that import first runs. Loaded file by file, ingest alone is
// 1,343 modules (TypeBox's are 683) and each costs Node memory of its own (a module record, its source, its
// scope); bundled, a service's V8 heap at rest is 7-14 MiB smaller (docs/decisions/memory.md,
// `pnpm bench memory`).
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

/**
 * Left to node_modules: packages that find files beside their own code at run time (a bundle has no
 * `__dirname`), and optional native add-ons that are not installed.
 * - pino, thread-stream, pino-pretty: a transport (pretty logs) runs in a worker loaded from pino's folder.
 * - @fastify/swagger-ui: serves its static files from its folder.
 */
const external = ['pino', 'thread-stream', 'pino-pretty', '@fastify/swagger-ui', 'pg-native', 'bufferutil', 'utf-8-validate']

/**
 * V8 flags the entry sets before anything else runs (NODE_OPTIONS refuses them): bytecode and baseline code
 * of functions not run for a while are dropped at the next full collection (after about one unit of V8's
 * code age instead of six) and compiled again from the source if ever called. What a service runs only at
 * start-up (plugin registration, schema compilation, route setup) is then let go: 4-7 MiB of V8 heap per
 * service at rest (docs/decisions/memory.md). Functions on a hot path keep theirs.
 */
const V8_FLAGS = "import { setFlagsFromString as __v8Flags } from 'node:v8'; __v8Flags('--bytecode-old-age=1'); __v8Flags('--flush-baseline-code');\n"

const result = await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  // Code reached only through `import()` goes to chunks of its own, loaded at that import.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  external,
  // Bundled CommonJS code calls `require` for Node's modules and the external packages (in every chunk).
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  // Blanks and syntax minified, names left as written, so stack traces read without esbuild's keepNames: that
  // wraps every function expression in a `name` setter (Object.defineProperty) run each time a closure is
  // made, 3-5 % of a service's CPU per alert under load (docs/benchmarks/platform.md). The source (kept in
  // memory) is about 0.6-0.8 MB larger than with minified names.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  charset: 'ascii',
  logLevel: 'warning',
  write: false,
})

// esbuild leaves a few characters unescaped in regular expressions and strings (`µs`, a licence's `ä`); one is
// enough for V8 to hold the whole source, 1-2 MB, as two bytes a character instead of one. `\uXXXX` means
// the same character in a string, a template and a regular expression; the bundle keeps no comments.
for (const file of result.outputFiles) {
  const ascii = file.text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  mkdirSync(path.dirname(file.path), { recursive: true })
  writeFileSync(file.path, path.basename(file.path) === 'main.js' ? `${V8_FLAGS}${ascii}` : ascii)
}
