import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

// Bun's own transpiler lists a file's imports (`import type` included when told to keep them): no dependency, ~1 s for src/.
const SRC = resolve(import.meta.dir, '../../src')
const transpilers = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) }

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** The file a relative specifier names (`./x` → x.ts, x.tsx or x/index.ts), or undefined for packages and assets. */
function resolved(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const base = resolve(dirname(from), specifier)
  for (const path of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile()) return path
  }
  return undefined
}

/** Every relative import of a file, static, `import type` and `export … from` alike. */
function importsOf(path: string): string[] {
  // scanImports drops type-only imports: the type keyword is taken out so they are listed like the others
  const text = readFileSync(path, 'utf8').replace(/\b(import|export)\s+type\s+(?=[{*]|\w+\s+from\b)/g, '$1 ')
  const found = transpilers[path.endsWith('.tsx') ? 'tsx' : 'ts'].scanImports(text).map((i) => resolved(path, i.path))
  return [...new Set(found.filter((p): p is string => p !== undefined))]
}

/** Strongly connected components of more than one file (or a file importing itself): each is an import cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      component.push(w)
    } while (w !== v)
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

function sourceGraph(): Map<string, string[]> {
  return new Map(sourceFiles(SRC).map((path) => [path, importsOf(path)]))
}

describe('src/ imports', () => {
  test('form no cycle, type-only imports included', () => {
    const graph = sourceGraph()
    expect(graph.size).toBeGreaterThan(300)
    const named = cycles(graph).map((files) => files.map((f) => relative(SRC, f)).join(' ↔ '))
    expect(named).toEqual([])
  })

  test('below modules/, functions take narrow ports, never the whole app (deps.ts)', () => {
    // what wires the app: the entry, the CLI that starts it, the app, its feature modules and their Elysia plugins
    const wiring = ['index.ts', 'app.ts', 'cli/', 'modules/', 'plugins/']
    const importers = [...sourceGraph()]
      .filter(([file, imports]) => !wiring.some((top) => relative(SRC, file).startsWith(top)) && imports.includes(join(SRC, 'deps.ts')))
      .map(([file]) => relative(SRC, file))
    expect(importers).toEqual([])
  })

  test('the walker sees type-only imports and re-exports', () => {
    const metering = importsOf(join(SRC, 'metering/settle.ts')).map((f) => relative(SRC, f))
    expect(metering).toContain('db/repos/logs.ts')
    expect(metering).toContain('metering/reserve.ts') // `import type { Reservation }`
    const auth = importsOf(join(SRC, 'relay/auth/index.ts')).map((f) => relative(SRC, f))
    expect(auth).toContain('relay/auth/verify-token.ts') // `export … from`
  })

  test('a cycle is found and named', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])
    expect(cycles(graph)).toEqual([['a', 'b', 'c']])
  })
})
