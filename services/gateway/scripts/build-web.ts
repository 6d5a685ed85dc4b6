// Builds the gateway's pages (docs/decisions/web.md): the TypeScript in web/src bundled by esbuild into
// content-hashed files, the stylesheet hashed too, the HTML pointed at those names, and every text file
// precompressed (.br, .gz) for @fastify/static's `preCompressed`. Output: services/gateway/public (git-ignored).
// Run by `pnpm build`, `pnpm start` and the test setup; `node --import tsx services/gateway/scripts/build-web.ts`.
import { createHash } from 'node:crypto'
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const gateway = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SOURCE = path.join(gateway, 'web', 'src')
const STATIC = path.join(gateway, 'web', 'static')
export const WEB_OUT = path.join(gateway, 'public')

/** The scripts the HTML pages load (`<script type="module" src="NAME.js">`): the bundle's entry points. */
const ENTRIES = ['app', 'activity', 'notifications', 'console', 'login', 'pending', 'broker', 'webhooks', 'sources', 'accounts']

export interface WebBuild {
  files: Array<{ name: string; raw: number; gzip: number; brotli: number }>
}

async function entryFile(name: string): Promise<string> {
  const names = await readdir(SOURCE)
  const found = [`${name}.ts`, `${name}.js`].find((file) => names.includes(file))
  if (found === undefined) throw new Error(`web/src has no ${name}.ts`)
  return path.join(SOURCE, found)
}

/** Bundles the scripts; returns each entry's page name (`app.js`) mapped to its hashed file. */
async function bundleScripts(out: string): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: await Promise.all(ENTRIES.map(entryFile)),
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    sourcemap: 'linked',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    outdir: out,
    metafile: true,
    logLevel: 'warning',
  })
  const names = new Map<string, string>()
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (output.entryPoint === undefined) continue
    names.set(`${path.basename(output.entryPoint).replace(/\.ts$/, '.js')}`, path.basename(file))
  }
  return names
}

// Hex, not base64url: a '-' or '_' in the name would not match the page tests' `styles-[A-Z0-9]+` (it did,
// for one stylesheet's content).
const hashOf = (content: Buffer) => createHash('sha256').update(content).digest('hex').slice(0, 10).toUpperCase()

/** The stylesheet under a content-hashed name; returns `styles.css` mapped to it. */
async function hashStyles(out: string): Promise<Map<string, string>> {
  const css = await readFile(path.join(STATIC, 'styles.css'))
  const name = `styles-${hashOf(css)}.css`
  await writeFile(path.join(out, name), css)
  return new Map([['styles.css', name]])
}

/** Copies each HTML page with its script and stylesheet references pointed at the hashed files. */
async function writePages(out: string, hashed: Map<string, string>): Promise<void> {
  for (const file of await readdir(STATIC)) {
    if (file === 'styles.css') continue
    if (!file.endsWith('.html')) {
      await copyFile(path.join(STATIC, file), path.join(out, file))
      continue
    }
    const html = (await readFile(path.join(STATIC, file), 'utf8')).replace(/(src|href)="([\w.-]+\.(?:js|css))"/g, (whole, attribute: string, name: string) => {
      const target = hashed.get(name)
      if (target === undefined) throw new Error(`${file} loads ${name}, which the build does not produce`)
      return `${attribute}="${target}"`
    })
    await writeFile(path.join(out, file), html)
  }
}

/** Writes NAME.br and NAME.gz beside each text file; returns the sizes. */
async function precompress(out: string): Promise<WebBuild['files']> {
  const files: WebBuild['files'] = []
  for (const name of (await readdir(out)).sort()) {
    if (!/\.(js|css|html|svg|map)$/.test(name)) continue
    const content = await readFile(path.join(out, name))
    const gzip = gzipSync(content, { level: 9 })
    const brotli = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
    await writeFile(path.join(out, `${name}.gz`), gzip)
    await writeFile(path.join(out, `${name}.br`), brotli)
    files.push({ name, raw: content.length, gzip: gzip.length, brotli: brotli.length })
  }
  return files
}

/** Builds the pages into `out` (emptied first). */
export async function buildWeb(out: string = WEB_OUT): Promise<WebBuild> {
  await rm(out, { recursive: true, force: true })
  await mkdir(out, { recursive: true })
  const hashed = new Map([...(await bundleScripts(out)), ...(await hashStyles(out))])
  await writePages(out, hashed)
  return { files: await precompress(out) }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  const { files } = await buildWeb()
  for (const file of files) process.stdout.write(`${file.name.padEnd(32)} ${String(file.raw).padStart(7)} B  gzip ${String(file.gzip).padStart(6)}  br ${String(file.brotli).padStart(6)}\n`)
  process.stdout.write(`# web build: ${files.length} files in ${Math.round(performance.now() - started)} ms\n`)
}
