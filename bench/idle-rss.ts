// Idle RSS of a gateway build, split into file-backed and anonymous pages: `bun bench/idle-rss.ts [binary]`.
// Starts it as lane 5 does (binary dropped from the page cache, fresh data dir, set up over the management
// API, 5 s idle, then reads /proc). IDLE_WAIT_MS changes the wait; KEEP_PAGE_CACHE=1 skips the drop.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dropFromPageCache } from './lib'
import { ROOT, startFake, startGateway } from './targets'

const args = process.argv.slice(2)
const binary = args.find((a) => !a.includes('=')) ?? join(ROOT, 'dist/tollgate')
// KEY=VALUE arguments go into the gateway's environment
const env = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]))
if (!process.env.KEEP_PAGE_CACHE && !dropFromPageCache(binary)) console.error('could not drop the binary from the page cache')
const fake = await startFake()
const gw = await startGateway([binary], binary, fake, { openai: ['bench-d16'], chatOnly: ['bench-chat'] }, env)
await Bun.sleep(Number(process.env.IDLE_WAIT_MS ?? 5000))
const field = (text: string, name: string) => Number(text.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1] ?? 0) / 1024
const status = readFileSync(`/proc/${gw.pid}/status`, 'utf8')
const rollup = readFileSync(`/proc/${gw.pid}/smaps_rollup`, 'utf8')
console.log(JSON.stringify({
  rssMb: +field(status, 'VmRSS').toFixed(1),
  anonMb: +field(status, 'RssAnon').toFixed(1),
  fileMb: +field(status, 'RssFile').toFixed(1),
  privateCleanMb: +field(rollup, 'Private_Clean').toFixed(1),
  privateDirtyMb: +field(rollup, 'Private_Dirty').toFixed(1),
}))
if (process.env.SMAPS) console.log(readFileSync(`/proc/${gw.pid}/smaps`, 'utf8'))
await gw.stop()
await fake.child.stop()
