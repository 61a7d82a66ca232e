import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { droppableCodeMappings, parseSmaps } from '../../src/launch/code-pages'

const ROOT = join(import.meta.dir, '../..')

const SMAPS = `00200000-01a39000 r--p 00000000 fe:00 5423121                            /opt/tollgate
Size:              25060 kB
Rss:                7072 kB
Anonymous:             0 kB
AnonHugePages:         0 kB
VmFlags: rd mr mw me
01a40000-0684a000 r-xp 01838000 fe:00 5423121                            /opt/tollgate
Rss:               35452 kB
Anonymous:             0 kB
06867000-07bd3000 rw-p 0665e000 fe:00 5423121                            /opt/tollgate
Rss:                3200 kB
Anonymous:           120 kB
07bd3000-07be0000 r--p 00000000 fe:00 5423121                            /opt/tollgate
Rss:                  40 kB
Anonymous:             8 kB
4392be00000-4396be00000 rw-p 00000000 00:00 0 
Rss:               22472 kB
Anonymous:         22472 kB
7f7d83981000-7f7d83ad7000 r-xp 00026000 fe:00 339380                     /usr/lib/x86_64-linux-gnu/libc.so.6
Rss:                1212 kB
Anonymous:             0 kB
`

test('smaps is read into mappings with their resident and anonymous kB', () => {
  const mappings = parseSmaps(SMAPS)
  expect(mappings).toHaveLength(6)
  expect(mappings[1]).toEqual({ start: 0x1a40000, end: 0x684a000, perms: 'r-xp', path: '/opt/tollgate', anonymousKb: 0, rssKb: 35452 })
  expect(mappings[4]).toMatchObject({ path: '', perms: 'rw-p', anonymousKb: 22472 })
})

// dropping a page that was copied on write would lose what was written into it: only clean, read-only file pages go
test("only the executable's read-only mappings without a private copy are dropped", () => {
  const chosen = droppableCodeMappings(parseSmaps(SMAPS), '/opt/tollgate')
  expect(chosen.map((c) => [c.mapping.perms, c.mapping.start, c.rssKb])).toEqual([
    ['r--p', 0x200000, 7072],
    ['r-xp', 0x1a40000, 35452],
  ])
  expect(droppableCodeMappings(parseSmaps(SMAPS), '/usr/bin/other')).toEqual([])
})

// In a fresh process: its code pages leave the resident set, and the process goes on running the same code
test('released code pages leave the resident set and come back on use', async () => {
  const script = `
    const { releaseCodePages } = await import(${JSON.stringify(join(ROOT, 'src/launch/code-pages.ts'))})
    const fileKb = () => Number(require('fs').readFileSync('/proc/self/status', 'utf8').match(/^RssFile:\\s+(\\d+)/m)[1])
    const work = () => new Bun.CryptoHasher('sha256').update(JSON.stringify({ a: [1, 2, 3] })).digest('hex') + Bun.deflateSync(new Uint8Array(1000)).length
    const before = fileKb()
    const first = work()
    const released = releaseCodePages()
    const after = fileKb()
    console.log(JSON.stringify({ before, released, after, same: work() === first }))`
  const proc = Bun.spawn(['bun', '-e', script], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  expect(err).toBe('')
  expect(code).toBe(0)
  const r = JSON.parse(out) as { before: number; released: number; after: number; same: boolean }
  expect(r.same).toBe(true)
  // Bun's own code is tens of MB resident in any process; most of it goes
  expect(r.released).toBeGreaterThan(10_000)
  expect(r.after).toBeLessThan(r.before - 10_000)
}, 30_000)
