import { expect, test } from 'bun:test'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '../..')

// What `tollgate serve` loads before it serves (everything its entry imports), in a fresh process: the modules an
// idle gateway on SQLite never needs must not be among them (idle RSS, issue #29 point 8). They load on first use.
test('serving on SQLite loads neither PostgreSQL, nor the look-alike table, nor the tokenizer at start', async () => {
  const script = `await import(${JSON.stringify(join(ROOT, 'src/cli/serve.ts'))}); console.log(JSON.stringify(Object.keys(require.cache)))`
  const proc = Bun.spawn(['bun', '-e', script], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  expect(err).toBe('')
  expect(code).toBe(0)
  const loaded: string[] = JSON.parse(out)
  // the walk sees the start path: the app and SQLite's repositories are there
  expect(loaded.some((path) => path.endsWith('src/app.ts'))).toBe(true)
  expect(loaded.some((path) => path.includes('src/db/sqlite/repos/'))).toBe(true)
  expect(loaded.filter((path) => /src\/db\/postgres\/|node_modules\/(unhomoglyph|gpt-tokenizer)\//.test(path))).toEqual([])
}, 30_000)
