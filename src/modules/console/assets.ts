import { basename, join } from 'node:path'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import page from '../../ui/index.html'

/** One file of the built console, with its encodings made once on first request and kept. */
export interface ConsoleAsset {
  readonly body: Uint8Array
  readonly type: string
  readonly etag: string
  /** hashed file names never change content: cached for a year; the HTML is revalidated */
  readonly immutable: boolean
  gzip?: Uint8Array
  brotli?: Uint8Array
}

export type AssetTable = ReadonlyMap<string, ConsoleAsset>
export const INDEX_PATH = '/index.html'

/**
 * The console's files by URL path. In the compiled binary `bun build --compile` has bundled the HTML import
 * and embedded its files (`page.files`); from source the same bundle is built in memory, once, on the first
 * console request, so a gateway nobody browses never pays for it.
 */
export async function loadConsoleAssets(): Promise<AssetTable> {
  const table = new Map<string, ConsoleAsset>()
  if (page.files) {
    for (const file of page.files) {
      if (file.path.endsWith('.map')) continue // source maps stay private
      const isIndex = file.loader === 'html'
      const body = await Bun.file(file.path).bytes()
      table.set(isIndex ? INDEX_PATH : `/${basename(file.path)}`, asset(body, file.headers['content-type'], !isIndex))
    }
    return table
  }
  const built = await Bun.build({ entrypoints: [sourceIndexPath()], minify: true, publicPath: '/', target: 'browser', splitting: true })
  if (!built.success) throw new AggregateError(built.logs, 'console build failed')
  for (const output of built.outputs) {
    if (output.path.endsWith('.map')) continue
    const isIndex = output.path.endsWith('.html')
    const body = new Uint8Array(await output.arrayBuffer())
    table.set(isIndex ? INDEX_PATH : `/${basename(output.path)}`, asset(body, output.type, !isIndex))
  }
  return table
}

function sourceIndexPath(): string {
  // in source runs the HTML import is the file's own path
  return page.index.startsWith('/') ? page.index : join(import.meta.dir, '../../ui/index.html')
}

function asset(body: Uint8Array, type: string, immutable: boolean): ConsoleAsset {
  return { body, type, etag: `"${Bun.hash(body).toString(36)}"`, immutable }
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json)|image\/svg)/

/** The smallest encoding the client accepts, made on first use and kept with the asset. */
export function encodingFor(asset: ConsoleAsset, acceptEncoding: string): { body: Uint8Array; encoding?: 'br' | 'gzip' } {
  if (!COMPRESSIBLE.test(asset.type) || asset.body.byteLength < 512) return { body: asset.body }
  if (/\bbr\b/.test(acceptEncoding)) {
    asset.brotli ??= brotliCompressSync(asset.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } })
    return { body: asset.brotli, encoding: 'br' }
  }
  if (/\bgzip\b/.test(acceptEncoding)) {
    asset.gzip ??= gzipSync(asset.body, { level: 9 })
    return { body: asset.gzip, encoding: 'gzip' }
  }
  return { body: asset.body }
}
