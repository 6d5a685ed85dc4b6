// A service's production build (`pnpm build` in services/<name>): src/main.ts and everything it imports,
// workspace packages and dependencies alike, as ES modules in dist/: dist/main.js, plus a chunk in
// dist/chunks/ for each part only reached through a dynamic `import()` (the OpenTelemetry SDK, nodemailer),
// which Node reads and compiles only when that import first runs. Loaded file by file, ingest alone is
// 1,343 modules (TypeBox's are 683) and each costs Node memory of its own (a module record, its source, its
// scope); bundled, a service's V8 heap at rest is 7-14 MiB smaller (docs/decisions/memory.md,
// `pnpm bench memory`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { build, type OutputFile, type Plugin } from 'esbuild'

/**
 * Left to node_modules: packages that find files beside their own code at run time (a bundle has no
 * `__dirname`), and optional native add-ons that are not installed.
 * - pino, thread-stream, pino-pretty: a transport (pretty logs) runs in a worker loaded from pino's folder.
 * (@fastify/swagger-ui, which serves its static files from its folder, is bundled and finds that folder
 * where it is installed: `swaggerUiFolder` below.)
 */
const external = ['pino', 'thread-stream', 'pino-pretty', 'pg-native', 'bufferutil', 'utf-8-validate']

/**
 * @fastify/swagger-ui (the gateway's `/docs`) reads its logo and serves Swagger UI's files from its own
 * folder (`__dirname`), so it was left to node_modules; loaded from there it brought its own @fastify/static,
 * glob and yaml file by file, about 130 modules, each a module record, a scope and a source of its own in
 * V8's heap (docs/decisions/memory.md). Bundled, its `__dirname` is the folder Node resolves the package to
 * from the service's dist/ (the service depends on it, so it is installed beside it in the image too).
 */
const swaggerUiFolder: Plugin = {
  name: 'swagger-ui-folder',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]@fastify[\\/]swagger-ui[\\/](index|lib[\\/]routes)\.js$/ }, (args) => {
      const inLib = /[\\/]lib[\\/]routes\.js$/.test(args.path)
      const folder = `require('node:path').join(require('node:path').dirname(require.resolve('@fastify/swagger-ui'))${inLib ? ", 'lib'" : ''})`
      const source = readFileSync(args.path, 'utf8').replaceAll('__dirname', '__swaggerUiDir')
      return { contents: `const __swaggerUiDir = ${folder};\n${source}`, loader: 'js' }
    })
  },
}

/**
 * V8 flags the entry sets before anything else runs (NODE_OPTIONS refuses them): bytecode and baseline code
 * of functions not run for a while are dropped at the next full collection (after about one unit of V8's
 * code age instead of six) and compiled again from the source if ever called. What a service runs only at
 * start-up (plugin registration, schema compilation, route setup) is then let go: 4-7 MiB of V8 heap per
 * service at rest (docs/decisions/memory.md). Functions on a hot path keep theirs.
 */
const V8_FLAGS = ['--bytecode-old-age=1', '--flush-baseline-code']

/**
 * V8 flags of one service only. The broker connector makes garbage at rest (its lease loop, its sweeps: about
 * 30 KiB/s reaches the old generation) and V8 lets the old generation grow 8 MiB or more past what is live
 * before its next full collection, so its resident memory climbs about 3 MiB a minute and more after its
 * reducing collections at start-up. In memory saver mode the step after a full collection is about 3 MiB
 * instead: a full collection of its 13 MiB heap (7-27 ms) about every 30 s at rest, and resident memory that
 * stays near its floor (docs/decisions/memory.md, eighth pass).
 */
const SERVICE_V8_FLAGS: Readonly<Record<string, readonly string[]>> = {
  '@signals/broker-connector': ['--memory-saver-mode'],
}
const service = (JSON.parse(readFileSync('package.json', 'utf8')) as { name: string }).name
const entryFlags = [...V8_FLAGS, ...(SERVICE_V8_FLAGS[service] ?? [])]
const ENTRY_PROLOGUE = `import { setFlagsFromString as __v8Flags } from 'node:v8'; ${entryFlags.map((flag) => `__v8Flags('${flag}');`).join(' ')}\n`

/**
 * `undici` as @fastify/reply-from (the gateway's proxy) uses it: its dispatchers, their request API and the
 * global dispatcher, the parts of undici's index that reply-from reads (`Pool`, `Client`, `Agent`,
 * `BalancedPool`, `ProxyAgent`, `Dispatcher`, `getGlobalDispatcher`), set up as that index sets them up.
 * The index also loads undici's fetch, WebSocket, EventSource, cache and mocks (half its 737 KB in the
 * bundle), and its cookie module reads `globalThis.Headers` at load, which makes Node load its own copy of
 * undici (0.73 MB of source, 2.6 MiB of heap in a bare process) for a proxy that never calls them
 * (docs/decisions/memory.md). The same files of the same undici, resolved from reply-from's folder.
 */
const UNDICI_DISPATCHERS = `'use strict'
const Dispatcher = require('undici/lib/dispatcher/dispatcher')
Object.assign(Dispatcher.prototype, require('undici/lib/api'))
module.exports = {
  Dispatcher,
  Client: require('undici/lib/dispatcher/client'),
  Pool: require('undici/lib/dispatcher/pool'),
  BalancedPool: require('undici/lib/dispatcher/balanced-pool'),
  Agent: require('undici/lib/dispatcher/agent'),
  ProxyAgent: require('undici/lib/dispatcher/proxy-agent'),
  getGlobalDispatcher: require('undici/lib/global').getGlobalDispatcher,
}
`
const undiciDispatchersOnly: Plugin = {
  name: 'undici-dispatchers-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.includes('/@fastify/reply-from/') ? { path: args.importer, namespace: 'undici-dispatchers' } : undefined,
    )
    esbuild.onLoad({ filter: /.*/, namespace: 'undici-dispatchers' }, (args) => ({ contents: UNDICI_DISPATCHERS, loader: 'js', resolveDir: path.dirname(args.path) }))
  },
}

/**
 * `yaml` as @fastify/swagger uses it (`stringify` for a document asked as YAML, `parse` for a static one):
 * loaded at its first call from dist/chunks/yaml.cjs, a bundle of its own built beside the service's. Swagger
 * requires it at load, but every service asks for its document as JSON (`/openapi.json`); only the gateway's
 * `/docs/yaml` wants YAML. Bundled in, yaml's source (160 KB) and its classes were held by every service for
 * nothing (docs/decisions/memory.md, eighth pass). A `require`, so it stays synchronous as swagger calls it;
 * the bundle's own `require` resolves from the file this code lands in (dist/ or dist/chunks/).
 */
const YAML_AT_FIRST_USE = `import { createRequire } from 'node:module'
let yaml
function load() {
  yaml ??= createRequire(import.meta.url)(import.meta.url.includes('/dist/chunks/') ? './yaml.cjs' : './chunks/yaml.cjs')
  return yaml
}
export const stringify = (...args) => load().stringify(...args)
export const parse = (...args) => load().parse(...args)
`
/** Where swagger's `yaml` resolves (set when the bundle has swagger): its chunk is built from there. */
let swaggerYaml: string | undefined
const yamlAtFirstUse: Plugin = {
  name: 'yaml-at-first-use',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^yaml$/ }, (args) => {
      if (!/[\\/]@fastify[\\/]swagger[\\/]/.test(args.importer)) return undefined
      swaggerYaml = createRequire(args.importer).resolve('yaml')
      return { path: 'yaml', namespace: 'yaml-at-first-use' }
    })
    esbuild.onLoad({ filter: /.*/, namespace: 'yaml-at-first-use' }, () => ({ contents: YAML_AT_FIRST_USE, loader: 'js' }))
  },
}

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
  plugins: [undiciDispatchersOnly, swaggerUiFolder, yamlAtFirstUse],
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

// The yaml swagger loads at its first use: a CommonJS bundle of its own (required synchronously).
const yamlChunk = swaggerYaml === undefined ? [] : (await build({
  entryPoints: [swaggerYaml],
  outfile: 'dist/chunks/yaml.cjs',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  charset: 'ascii',
  logLevel: 'warning',
  write: false,
})).outputFiles

// esbuild leaves a few characters unescaped in regular expressions and strings (`µs`, a licence's `ä`); one is
// enough for V8 to hold the whole source, 1-2 MB, as two bytes a character instead of one. `\uXXXX` means
// the same character in a string, a template and a regular expression; the bundle keeps no comments.
const files: OutputFile[] = [...result.outputFiles, ...yamlChunk]
for (const file of files) {
  const ascii = file.text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  mkdirSync(path.dirname(file.path), { recursive: true })
  writeFileSync(file.path, path.basename(file.path) === 'main.js' ? `${ENTRY_PROLOGUE}${ascii}` : ascii)
}
