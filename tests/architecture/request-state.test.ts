import { expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const SRC = resolve(import.meta.dir, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

// A relay request's state (its body's record, its key's verdict) rides on the request's own context, passed along
// from the parser to the transform and the handler, not in a module-level map keyed by the request.
test('the relay keeps no side store keyed by the request', () => {
  const stores = ['relay', 'modules/relay'].flatMap((dir) =>
    sourceFiles(join(SRC, dir))
      .filter((path) => /new Weak(Map|Set)<Request\b/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path)),
  )
  expect(stores).toEqual([])
})
