/**
 * A throwaway PostgreSQL for the tests: Debian's binaries, initdb'd in a temp directory, listening on a free
 * loopback port (and a unix socket in that directory), stopped by the PID it wrote, directory removed.
 * PostgreSQL refuses to run as root, so as root it runs as `nobody`. Nothing here is a mock.
 *
 * `startPostgres()` gives a test file its own server (stop it in afterAll). `sharedPostgres()` gives every
 * file of one `bun test` run the same server (bun test has no global teardown: a watchdog process stops it
 * when the test process is gone); either way `createDatabase()` hands each file or test a fresh database.
 */
import { SQL } from 'bun'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { freePort, isRoot, pidAlive, run, waitGone, type TestServer } from './server-process'

export interface PgServer extends TestServer {
  /** a new, empty database on this server; resolves to its URL (same user and password as `url`) */
  createDatabase(name?: string): Promise<string>
  /** a client for `url`'s database, or another one on this server */
  client(database?: string): SQL
  /** the server's temp directory: data, unix socket, server.log */
  dir: string
  /** Stop the server (fast shutdown: sessions end) and keep its data, to `up()` again on the same port. */
  down(): Promise<void>
  up(): Promise<void>
}

function postgresBin(): string | undefined {
  if (!existsSync('/usr/lib/postgresql')) return undefined
  const versions = readdirSync('/usr/lib/postgresql').filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`)).sort((a, b) => Number(b) - Number(a))
  return versions[0] ? `/usr/lib/postgresql/${versions[0]}/bin` : undefined
}

/** False without the binaries, or with TOLLGATE_TEST_POSTGRES=off (to see the skips on a machine that has them). */
export const hasPostgres = (): boolean =>
  process.env.TOLLGATE_TEST_POSTGRES !== 'off' && postgresBin() !== undefined && (!isRoot() || existsSync('/usr/bin/su') || existsSync('/bin/su'))

/** The line a test file logs when it skips for want of PostgreSQL. */
export const NO_POSTGRES = 'no PostgreSQL binaries under /usr/lib/postgresql: skipped (apt-get install postgresql)'

let databases = 0

/** The one password of every test server (its template was initdb'd with it). */
const PASSWORD = 'p@ss w/rd:1%'
/** postgres refuses root: as root, everything runs as nobody, who must own the directory */
const as = (command: string) => (isRoot() ? ['su', 'nobody', '-s', '/bin/sh', '-c', command] : ['/bin/sh', '-c', command])
const ownDir = (dir: string) => {
  if (isRoot()) chownSync(dir, 65534, 65534)
  chmodSync(dir, 0o700)
}

/**
 * A data directory initdb'd once per machine and PostgreSQL version, which every server copies: initdb costs
 * about 0.7 s of CPU, a copy 0.03 s, and the suite starts a dozen servers. Built in a temp directory and renamed
 * into place whole, so a concurrent worker sees it complete or not at all (the loser's build is thrown away).
 */
async function templateData(bin: string): Promise<string> {
  const template = join(tmpdir(), `tollgate-pg-template-${basename(dirname(bin))}-${isRoot() ? 'nobody' : process.getuid?.()}`)
  const data = join(template, 'data')
  if (existsSync(join(data, 'PG_VERSION'))) return data
  const building = mkdtempSync(join(tmpdir(), 'tollgate-pg-building-'))
  writeFileSync(join(building, 'pw'), PASSWORD + '\n')
  ownDir(building)
  if (isRoot()) chownSync(join(building, 'pw'), 65534, 65534)
  const init = await run(as(`'${bin}/initdb' -D '${building}/data' -U postgres --auth-local=trust --auth-host=scram-sha-256 --pwfile='${building}/pw' -E UTF8 --locale=C`))
  if (init.code !== 0) {
    rmSync(building, { recursive: true, force: true })
    throw new Error(`initdb failed: ${init.out}`)
  }
  try {
    renameSync(building, template)
  } catch {
    rmSync(building, { recursive: true, force: true }) // another process put its template there first
  }
  return data
}

export async function startPostgres(database = 'tollgate'): Promise<PgServer> {
  const bin = postgresBin()
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql')
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-pg-'))
  const password = PASSWORD
  ownDir(dir)
  const copied = await run(['cp', '-a', await templateData(bin), join(dir, 'data')])
  if (copied.code !== 0) throw new Error(`copying the initdb template failed: ${copied.out}`)
  const port = await freePort()
  const startServer = async () => {
    const start = await run(as(`'${bin}/pg_ctl' -D '${dir}/data' -o "-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c fsync=off" -l '${dir}/server.log' -w -t 30 start`))
    if (start.code !== 0) throw new Error(`pg_ctl start failed: ${start.out}\n${existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : ''}`)
    return Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
  }
  let pid = await startServer()
  const urlOf = (db: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`
  const client = (db = database) => new SQL({ adapter: 'postgres', hostname: '127.0.0.1', port, username: 'postgres', password, database: db })
  const createDatabase = async (name = `t${process.pid}_${++databases}_${Date.now().toString(36)}`) => {
    const admin = client('postgres')
    try {
      await admin.unsafe(`CREATE DATABASE "${name}"`)
    } finally {
      await admin.close()
    }
    return urlOf(name)
  }
  await createDatabase(database)
  return {
    url: urlOf(database),
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password,
    database,
    get pid() {
      return pid
    },
    createDatabase,
    client,
    async stop() {
      if (pidAlive(pid)) process.kill(pid, 'SIGINT') // "fast" shutdown
      await waitGone(pid)
      rmSync(dir, { recursive: true, force: true })
    },
    async down() {
      if (pidAlive(pid)) process.kill(pid, 'SIGINT')
      await waitGone(pid)
    },
    async up() {
      pid = await startServer()
    },
    dir,
  }
}

let shared: Promise<PgServer> | undefined

/**
 * One server for every test file of this process. Its `stop()` does nothing (another file may still use
 * it): a watchdog shell polls this process every 2 s (each poll is a `sleep` process: a millisecond of CPU) and,
 * once it is gone, stops the server by PID and removes its directory, also after a crash or Ctrl-C.
 */
export function sharedPostgres(): Promise<PgServer> {
  shared ??= startPostgres('tollgate').then((server) => {
    const dir = server.dir
    const watchdog = `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; kill -INT ${server.pid} 2>/dev/null; ` +
      `i=0; while kill -0 ${server.pid} 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; rm -rf '${dir}'`
    Bun.spawn(['/bin/sh', '-c', watchdog], { stdio: ['ignore', 'ignore', 'ignore'] }).unref()
    return { ...server, stop: async () => {} }
  })
  return shared
}
