// A service's production build (`pnpm build` in services/<name>): src/main.ts and everything it imports,
// workspace packages and dependencies alike, as one ES module, dist/main.js. Loaded file by file, ingest
// alone is 1,343 modules (TypeBox's are 683) and each costs Node memory of its own (a module record, its
// source, its scope); bundled, a service's V8 heap at rest is 7-14 MiB smaller (docs/decisions/memory.md,
// `pnpm bench memory`).
import { readFileSync, writeFileSync } from 'node:fs'
import { build } from 'esbuild'

/**
 * Left to node_modules: packages that find files beside their own code at run time (a bundle has no
 * `__dirname`), and optional native add-ons that are not installed.
 * - pino, thread-stream, pino-pretty: a transport (pretty logs) runs in a worker loaded from pino's folder.
 * - @fastify/swagger-ui: serves its static files from its folder.
 */
const external = ['pino', 'thread-stream', 'pino-pretty', '@fastify/swagger-ui', 'pg-native', 'bufferutil', 'utf-8-validate']

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  external,
  // Bundled CommonJS code calls `require` for Node's modules and the external packages.
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
})

// esbuild leaves a few characters unescaped in regular expressions and strings (`µs`, a licence's `ä`); one is
// enough for V8 to hold the whole source, 1-2 MB, as two bytes a character instead of one. `\uXXXX` means
// the same character in a string, a template and a regular expression; the bundle keeps no comments.
const source = readFileSync('dist/main.js', 'utf8')
writeFileSync('dist/main.js', source.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
