/**
 * Run the Dockerfile's stages on this machine without Docker: `bun scripts/check-dockerfile.ts`.
 *
 * The build stage's own instructions run as they are (WORKDIR and COPY into a temp dir standing for the stage's
 * file system, each RUN with `sh -c` there, so `bun install --frozen-lockfile --production` and the build are
 * the very commands the image runs); then the runtime stage: its COPY --from=build must find the binary, which
 * is started as the stage's ENTRYPOINT + CMD with its ENV, as an unprivileged user (setpriv, when run as root)
 * on an empty directory standing for the VOLUME, until its HEALTHCHECK command passes; then STOPSIGNAL stops it
 * and it must exit 0. Only what needs a container is skipped, and said: the runtime stage's RUN (it creates the
 * image's user) and the base images themselves. Exit 0 when every stage ran; 1 with the failing step.
 */
import { chmodSync, chownSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
const dockerfile = process.argv[2] ?? join(ROOT, 'Dockerfile')
const keep = process.argv.includes('--keep')

interface Instruction {
  op: string
  args: string
  line: number
}
interface Stage {
  from: string
  name: string
  steps: Instruction[]
}

/** Instructions with continuation lines joined and comments dropped, grouped into stages. */
export function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const args: Record<string, string> = {}
  const stages: Stage[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.trim()
    const start = i + 1
    if (!line || line.startsWith('#')) continue
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? []
    if (!op) throw new Error(`${dockerfile}:${start}: cannot read "${line}"`)
    const instruction = { op: op.toUpperCase(), args: rest!, line: start }
    if (instruction.op === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest!) ?? []
      stages.push({ from: image!, name: name ?? String(stages.length), steps: [] })
    } else if (instruction.op === 'ARG' && stages.length === 0) {
      const [k, v] = rest!.split('=')
      args[k!] = v ?? ''
    } else stages.at(-1)?.steps.push(instruction)
  }
  return { args, stages }
}

/** KEY=value pairs of ENV (or the legacy `ENV KEY value`). */
function envOf(args: string): Record<string, string> {
  if (!args.includes('=')) {
    const [k, ...v] = args.split(/\s+/)
    return { [k!]: v.join(' ') }
  }
  return Object.fromEntries([...args.matchAll(/(\w+)=("[^"]*"|\S*)/g)].map((m) => [m[1]!, m[2]!.replace(/^"|"$/g, '')]))
}

/** A JSON-array (exec form) or shell-form command. */
function commandOf(args: string): string[] {
  return args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : ['sh', '-c', args]
}

function step(message: string): void {
  console.log(`== ${message}`)
}

function fail(message: string): never {
  console.error(`check-dockerfile: ${message}`)
  process.exit(1)
}

async function run(cmd: string[], options: { cwd: string; env: Record<string, string> }): Promise<number> {
  const proc = Bun.spawn(cmd, { cwd: options.cwd, env: options.env, stdout: 'inherit', stderr: 'inherit' })
  return proc.exited
}

const { args, stages } = parseDockerfile(readFileSync(dockerfile, 'utf8'))
const build = stages.find((s) => s.name === 'build') ?? fail('no stage named build')
const runtime = stages.at(-1)!
if (runtime === build) fail('the last stage should be the runtime, apart from the build stage')
const root = mkdtempSync(join(tmpdir(), 'tollgate-dockerfile-'))
const fsOf = (stage: Stage) => join(root, stage.name)
/** a path inside a stage, under the temp dir standing for its file system */
const inStage = (stage: Stage, path: string, cwd: string) => join(fsOf(stage), path.startsWith('/') ? path : join(cwd, path))

try {
  // ---- the build stage, every instruction
  const wantBun = args.BUN_VERSION
  step(`stage ${build.name}: FROM ${build.from.replace('${BUN_VERSION}', wantBun ?? '?')} (this machine's Bun ${Bun.version})`)
  if (wantBun && wantBun !== Bun.version) fail(`the image builds with Bun ${wantBun}, this machine has ${Bun.version}`)
  let cwd = '/'
  const env: Record<string, string> = { ...(process.env as Record<string, string>) }
  for (const s of build.steps) {
    if (s.op === 'WORKDIR') {
      cwd = s.args
      mkdirSync(inStage(build, cwd, '/'), { recursive: true })
    } else if (s.op === 'COPY') {
      const parts = s.args.split(/\s+/)
      const dest = parts.pop()!
      for (const src of parts) {
        const from = join(ROOT, src)
        const to = dest.endsWith('/') || parts.length > 1 ? join(inStage(build, dest, cwd), src.split('/').pop()!) : inStage(build, dest, cwd)
        mkdirSync(dirname(to), { recursive: true })
        cpSync(from, to, { recursive: true })
      }
      console.log(`   COPY ${s.args}`)
    } else if (s.op === 'RUN') {
      step(`stage ${build.name}, line ${s.line}: RUN ${s.args}`)
      const code = await run(['sh', '-c', s.args], { cwd: inStage(build, cwd, '/'), env })
      if (code !== 0) fail(`line ${s.line}: RUN exited with ${code}`)
    } else if (s.op === 'ENV') Object.assign(env, envOf(s.args))
    else console.log(`   ${s.op} ${s.args} (nothing to run)`)
  }

  // ---- the runtime stage: the binary from the build stage, started as the image starts it
  step(`stage ${runtime.name}: FROM ${runtime.from}`)
  cwd = '/'
  const runtimeEnv: Record<string, string> = { PATH: `${join(fsOf(runtime), 'usr/local/bin')}:/usr/bin:/bin` }
  let user: string | undefined
  let volume: string | undefined
  let entrypoint: string[] = []
  let cmd: string[] = []
  let health: string[] | undefined
  let stopSignal = 'SIGTERM'
  for (const s of runtime.steps) {
    if (s.op === 'RUN') console.log(`   RUN ${s.args.slice(0, 100)}… (skipped: it sets up the image's user, which needs a container)`)
    else if (s.op === 'COPY') {
      const from = /--from=(\S+)/.exec(s.args)?.[1]
      const [src, dest] = s.args.replace(/--\S+\s*/g, '').split(/\s+/)
      const source = from ? join(fsOf(stages.find((x) => x.name === from) ?? fail(`line ${s.line}: no stage ${from}`)), src!) : join(ROOT, src!)
      if (!existsSync(source)) fail(`line ${s.line}: COPY finds no ${src} in stage ${from}`)
      const to = inStage(runtime, dest!, cwd)
      mkdirSync(dirname(to), { recursive: true })
      copyFileSync(source, to)
      chmodSync(to, 0o755)
      console.log(`   COPY ${s.args}`)
    } else if (s.op === 'USER') user = s.args
    else if (s.op === 'WORKDIR') cwd = s.args
    else if (s.op === 'ENV') Object.assign(runtimeEnv, envOf(s.args))
    else if (s.op === 'VOLUME') volume = s.args.replace(/[[\]"]/g, '').trim()
    else if (s.op === 'ENTRYPOINT') entrypoint = commandOf(s.args)
    else if (s.op === 'CMD') cmd = commandOf(s.args)
    else if (s.op === 'HEALTHCHECK') health = commandOf(s.args.replace(/^(--\S+\s+)*CMD\s+/, ''))
    else if (s.op === 'STOPSIGNAL') stopSignal = s.args
  }
  if (!volume) fail('the runtime stage declares no VOLUME')
  if (!health) fail('the runtime stage has no HEALTHCHECK')
  if (!user || user === 'root' || user === '0') fail('the runtime stage runs as root (USER)')
  // the volume: an empty directory owned by the unprivileged user; paths in ENV that point into it follow it
  const data = inStage(runtime, volume, '/')
  mkdirSync(data, { recursive: true, mode: 0o700 })
  for (const [k, v] of Object.entries(runtimeEnv)) if (v === volume || v.startsWith(`${volume}/`)) runtimeEnv[k] = v.replace(volume, data)
  const free = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const port = String(free.port)
  free.stop(true)
  Object.assign(runtimeEnv, { PORT: port, HOST: '127.0.0.1', HOME: data })
  const asUser: string[] = []
  if (process.getuid?.() === 0) {
    chownSync(data, 10001, 10001)
    for (let dir = dirname(data); dir.startsWith(root); dir = dirname(dir)) chmodSync(dir, 0o755)
    chmodSync(root, 0o755)
    asUser.push('setpriv', '--reuid=10001', '--regid=10001', '--clear-groups', '--')
    console.log(`   USER ${user}: run as uid 10001 (setpriv)`)
  } else console.log(`   USER ${user}: run as this unprivileged user (uid ${process.getuid?.()})`)
  const start = [...asUser, ...entrypoint, ...cmd]
  step(`start: ${[...entrypoint, ...cmd].join(' ')} (PORT=${port}, ${volume} = ${data})`)
  const server = Bun.spawn(start, { cwd: data, env: runtimeEnv, stdout: 'inherit', stderr: 'inherit' })
  let healthy = false
  for (let i = 0; i < 100 && server.exitCode === null; i++) {
    const probe = Bun.spawnSync([...asUser, ...health], { cwd: data, env: runtimeEnv, stdout: 'pipe', stderr: 'pipe' })
    if (probe.exitCode === 0) {
      healthy = true
      console.log(`   HEALTHCHECK ${health.join(' ')}: ${probe.stdout.toString().trim()}`)
      break
    }
    await Bun.sleep(150)
  }
  if (!healthy) {
    server.kill('SIGKILL')
    fail(`the HEALTHCHECK (${health.join(' ')}) never passed${server.exitCode !== null ? `: the server exited with ${server.exitCode}` : ''}`)
  }
  step(`STOPSIGNAL ${stopSignal}`)
  server.kill(stopSignal as NodeJS.Signals)
  let timer: Timer | undefined
  const code = await Promise.race([server.exited, new Promise<number>((resolve) => (timer = setTimeout(() => resolve(-1), 45_000)))])
  clearTimeout(timer)
  if (code !== 0) fail(`the server exited with ${code} on ${stopSignal}`)
  console.log('check-dockerfile: ok (the build stage ran as written; the runtime stage started, passed its HEALTHCHECK and stopped with 0)')
} finally {
  if (!keep) rmSync(root, { recursive: true, force: true })
}
