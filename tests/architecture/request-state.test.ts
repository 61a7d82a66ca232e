import { expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const SRC = resolve(import.meta.dir, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

// A request's state (its arrival and id, its body's record, its key's verdict, its session's user) rides on the
// request's own context, passed along from hook to hook and to the handler, not in a module-level map keyed by
// the request that a reader must know to look in.
test('no side store keyed by the request, anywhere in src/', () => {
  const stores = sourceFiles(SRC)
    .filter((path) => /new Weak(Map|Set)<(Request|Context)\b/.test(readFileSync(path, 'utf8')))
    .map((path) => relative(SRC, path))
  expect(stores).toEqual([])
})

test('the walk reads every source file, the console included', () => {
  const files = sourceFiles(SRC).map((path) => relative(SRC, path))
  expect(files).toContain('plugins/session.ts')
  expect(files).toContain('plugins/request-context.ts')
  expect(files).toContain('ui/main.tsx')
})
