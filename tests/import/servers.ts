/**
 * Throwaway database servers for the import tests: Debian's PostgreSQL and MariaDB binaries, started in a temp
 * directory on a free loopback port, stopped by the PID this process started, directory removed. PostgreSQL
 * refuses to run as root, so as root it runs as `nobody`. Nothing here is a mock.
 */
import { SQL } from 'bun'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestServer {
  /** a URL (postgres://…, mysql://…) for the fixture database, with a password that needs URL-encoding */
  url: string
  host: string
  port: number
  user: string
  password: string
  database: string
  /** the server's PID (stopped by it) */
  pid: number
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = server.port
  server.stop(true)
  return port
}

async function run(cmd: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code: await proc.exited, out: out + err }
}

const isRoot = () => process.getuid?.() === 0

function postgresBin(): string | undefined {
  if (!existsSync('/usr/lib/postgresql')) return undefined
  const versions = readdirSync('/usr/lib/postgresql').filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`)).sort((a, b) => Number(b) - Number(a))
  return versions[0] ? `/usr/lib/postgresql/${versions[0]}/bin` : undefined
}

export const hasPostgres = (): boolean => postgresBin() !== undefined && (!isRoot() || existsSync('/usr/bin/su') || existsSync('/bin/su'))

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitGone(pid: number, ms = 15_000): Promise<void> {
  const until = Date.now() + ms
  while (pidAlive(pid) && Date.now() < until) await Bun.sleep(50)
}

export async function startPostgres(database = 'newapi'): Promise<TestServer> {
  const bin = postgresBin()
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql')
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-import-pg-'))
  const password = 'p@ss w/rd:1%'
  writeFileSync(join(dir, 'pw'), password + '\n')
  // postgres refuses root: as root, everything runs as nobody, who must own the directory
  const as = (command: string) => (isRoot() ? ['su', 'nobody', '-s', '/bin/sh', '-c', command] : ['/bin/sh', '-c', command])
  if (isRoot()) {
    const nobody = 65534
    chownSync(dir, nobody, nobody)
    chownSync(join(dir, 'pw'), nobody, nobody)
  }
  chmodSync(dir, 0o700)
  const init = await run(as(`'${bin}/initdb' -D '${dir}/data' -U postgres --auth-local=trust --auth-host=scram-sha-256 --pwfile='${dir}/pw' -E UTF8 --locale=C`))
  if (init.code !== 0) throw new Error(`initdb failed: ${init.out}`)
  const port = await freePort()
  const start = await run(as(`'${bin}/pg_ctl' -D '${dir}/data' -o "-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c fsync=off" -l '${dir}/server.log' -w -t 30 start`))
  if (start.code !== 0) throw new Error(`pg_ctl start failed: ${start.out}\n${existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : ''}`)
  const pid = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
  const admin = new SQL({ adapter: 'postgres', hostname: '127.0.0.1', port, username: 'postgres', password, database: 'postgres' })
  await admin.unsafe(`CREATE DATABASE ${database}`)
  await admin.close()
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password,
    database,
    pid,
    async stop() {
      if (pidAlive(pid)) process.kill(pid, 'SIGINT') // "fast" shutdown
      await waitGone(pid)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function mariadbBins(): { server: string; install: string } | undefined {
  const server = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((p) => existsSync(p))
  const install = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((p) => existsSync(p))
  return server && install ? { server, install } : undefined
}

export const hasMariadb = (): boolean => mariadbBins() !== undefined

export async function startMariadb(database = 'newapi'): Promise<TestServer> {
  const bins = mariadbBins()
  if (!bins) throw new Error('no MariaDB server binaries (apt-get install mariadb-server)')
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-import-my-'))
  const user = isRoot() ? ['--user=root'] : []
  const install = await run([bins.install, '--no-defaults', `--datadir=${dir}/data`, '--auth-root-authentication-method=normal', '--skip-test-db', ...user])
  if (install.code !== 0) throw new Error(`mariadb-install-db failed: ${install.out}`)
  const port = await freePort()
  const socket = join(dir, 'mysqld.sock')
  const proc = Bun.spawn(
    [bins.server, '--no-defaults', `--datadir=${dir}/data`, `--socket=${socket}`, `--port=${port}`, '--bind-address=127.0.0.1', '--skip-log-bin', `--pid-file=${dir}/mysqld.pid`, '--innodb-flush-log-at-trx-commit=0', ...user],
    { stdout: 'ignore', stderr: Bun.file(join(dir, 'server.log')) },
  )
  const stop = async () => {
    proc.kill('SIGTERM')
    await Promise.race([proc.exited, Bun.sleep(15_000)])
    rmSync(dir, { recursive: true, force: true })
  }
  const password = 'p@ss:w/rd#1'
  try {
    const until = Date.now() + 30_000
    while (!existsSync(socket)) {
      if (Date.now() > until || proc.exitCode !== null) throw new Error(`mariadbd did not start: ${existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : ''}`)
      await Bun.sleep(100)
    }
    const admin = new SQL({ adapter: 'mysql', path: socket, username: 'root', password: '', database: 'mysql' })
    await admin.unsafe(`CREATE DATABASE ${database} CHARACTER SET utf8mb4`)
    await admin.unsafe(`CREATE USER 'newapi'@'%' IDENTIFIED BY '${password}'`)
    await admin.unsafe(`GRANT ALL ON ${database}.* TO 'newapi'@'%'`)
    await admin.close()
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url: `mysql://newapi:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    host: '127.0.0.1',
    port,
    user: 'newapi',
    password,
    database,
    pid: proc.pid,
    stop,
  }
}
