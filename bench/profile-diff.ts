/**
 * Two `bench/profile.ts` runs compared (best run at the same time, e.g. one with `--root=<other tree>`): the
 * samples of each one's measured window only (its `window.json`; start-up and warm-up left out), per 1,000
 * requests, by function (self and total) and by file (self). JavaScriptCore's sampler takes a sample only while
 * JavaScript runs, so samples per request track the JS thread's CPU per request; they are counts, and sharing
 * the machine's load moves both runs alike. Paths are shown relative to each run's tree.
 *
 *   bun bench/profile-diff.ts <profile dir A> <profile dir B> [--top=30] [--under=<function name>]
 *
 * `--under=reserve` adds a table of what runs inside frames of that name: each callee's inclusive samples.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}
interface Window {
  root: string
  from: number
  to: number
  requests: number
}

const [dirA, dirB] = Bun.argv.slice(2).filter((a) => !a.startsWith('--'))
if (!dirA || !dirB) throw new Error('usage: bun bench/profile-diff.ts <profile dir A> <profile dir B>')
const flag = (name: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const top = Number(flag('top') ?? 30)
const under = flag('under')

function load(dir: string) {
  const window = JSON.parse(readFileSync(join(dir, 'window.json'), 'utf8')) as Window
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
  if (!file) throw new Error(`no .cpuprofile in ${dir}`)
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const where = (n: Node) => n.callFrame.url.replace(window.root + '/', '').replace(/^.*node_modules\//, 'node_modules/')
  const fnKey = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${where(n) || '[native]'}`
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  const files = new Map<string, number>()
  const callees = new Map<string, number>()
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
  let t = profile.startTime // µs since the epoch
  let samples = 0
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!
    if (t < window.from * 1000 || t > window.to * 1000) continue
    samples++
    const leaf = byId.get(profile.samples[i]!)!
    add(self, fnKey(leaf))
    add(files, where(leaf) || '[native]')
    const seen = new Set<string>()
    let below: string | undefined // the frame just under this one, leaf-wards
    let calleeCounted = false
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!
      const key = fnKey(node)
      if (!seen.has(key)) add(total, key), seen.add(key)
      if (under && !calleeCounted && node.callFrame.functionName === under) {
        add(callees, below ?? '(self)')
        calleeCounted = true
      }
      below = key
    }
  }
  const per = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, (v * 1000) / window.requests]))
  return { window, samples, perK: (samples * 1000) / window.requests, self: per(self), total: per(total), files: per(files), callees: per(callees) }
}

const a = load(dirA)
const b = load(dirB)
console.log(`A ${a.window.root}: ${a.window.requests} requests, ${a.samples} samples, ${a.perK.toFixed(0)} per 1k requests`)
console.log(`B ${b.window.root}: ${b.window.requests} requests, ${b.samples} samples, ${b.perK.toFixed(0)} per 1k requests (B/A ${(b.perK / a.perK).toFixed(3)})`)

function table(title: string, ma: Map<string, number>, mb: Map<string, number>) {
  const keys = new Set([...ma.keys(), ...mb.keys()])
  const rows = [...keys].map((k) => ({ k, a: ma.get(k) ?? 0, b: mb.get(k) ?? 0 })).sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
  console.log(`\n## ${title}: samples per 1k requests, largest differences first\n\n| A | B | B − A | where |\n| ---: | ---: | ---: | --- |`)
  for (const r of rows.slice(0, top)) console.log(`| ${r.a.toFixed(1)} | ${r.b.toFixed(1)} | ${(r.b - r.a).toFixed(1)} | ${r.k} |`)
}
table('Self, by function', a.self, b.self)
table('Self, by file', a.files, b.files)
table('Total (inclusive), by function', a.total, b.total)
if (under) table(`Inside ${under} (inclusive, by callee)`, a.callees, b.callees)
