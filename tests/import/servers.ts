/**
 * Throwaway database servers for the import tests: Debian's PostgreSQL (tests/helpers/pg-server.ts, shared by
 * every test area) and MariaDB binaries, started in a temp directory on a free loopback port, stopped by the
 * PID this process started, directory removed. Nothing here is a mock.
 */
import { SQL } from 'bun'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, isRoot, run, type TestServer } from '../helpers/server-process'

export { hasPostgres, startPostgres } from '../helpers/pg-server'
export type { TestServer }

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
