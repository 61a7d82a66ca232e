import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config'
import { listScheduledBackups, pruneBackups, scheduledBackupName } from './backup'
import type { BackupStats } from '../telemetry/index'


/** How to run this program's own `backup` command: the binary itself, or bun with the entry file when run from source. */
function selfCommand(): string[] {
  const compiled = Bun.main.startsWith('/$bunfs/') || Bun.main.startsWith('B:/~BUN/')
  return compiled ? [process.execPath] : [process.execPath, Bun.main]
}

/**
 * BACKUP_DIR / BACKUP_EVERY_HOURS / BACKUP_KEEP: every so many hours, `tollgate backup` (this very program, as
 * a child process, so the copy never holds the gateway's event loop) writes tollgate-YYYYMMDD-HHMMSS.db and
 * its .secrets into the directory, then the oldest beyond BACKUP_KEEP are deleted. The first one is due an
 * interval after the newest backup already there (at once, a minute after start, when that is overdue), so
 * restarts do not postpone backups forever.
 */
export function startBackupSchedule(
  config: Pick<Config, 'backupDir' | 'backupEveryHours' | 'backupKeep' | 'dataDir'>,
  ops: { backup?: BackupStats },
  /** how to run `tollgate` (tests give `bun src/index.ts`: under bun test, Bun.main is the test file) */
  command: string[] = selfCommand(),
) {
  const stats: BackupStats = { lastSuccessAt: 0, failures: 0 }
  ops.backup = stats
  const dir = config.backupDir
  if (!dir || config.backupEveryHours <= 0) return { stop() {}, stats }
  const everyMs = config.backupEveryHours * 3600_000
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const newest = listScheduledBackups(dir).at(-1)
  const newestAt = newest ? statSync(join(dir, newest)).mtimeMs : 0
  if (newest) stats.lastSuccessAt = newestAt
  const firstIn = Math.max(60_000, newestAt + everyMs - Date.now())

  const run = async () => {
    timer = undefined
    const target = join(dir, scheduledBackupName())
    const child = Bun.spawn([...command, 'backup', target, '--data-dir', config.dataDir], { stdout: 'pipe', stderr: 'pipe', env: process.env })
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
    if (code === 0) {
      stats.lastSuccessAt = Date.now()
      const pruned = pruneBackups(dir, config.backupKeep)
      console.log(`scheduled backup: ${out.trim().split('\n').at(-1) ?? target}${pruned.length ? `; deleted ${pruned.join(', ')} (BACKUP_KEEP=${config.backupKeep})` : ''}`)
    } else {
      stats.failures++
      console.error(`scheduled backup to ${target} failed (exit ${code}): ${(err || out).trim().slice(-500)}`)
    }
    if (!stopped) schedule(everyMs)
  }
  const schedule = (ms: number) => {
    timer = setTimeout(() => void run(), ms)
    timer.unref()
  }
  schedule(firstIn)
  console.log(`scheduled backups: every ${config.backupEveryHours} h into ${dir}, keeping ${config.backupKeep}; next in ${Math.round(firstIn / 60_000)} min`)
  return {
    stats,
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
    /** run one now (tests) */
    runNow: run,
  }
}
