import { dlopen, FFIType } from 'bun:ffi'
import { readFileSync, realpathSync } from 'node:fs'

/** One mapping of /proc/self/smaps: where it is, how it is mapped, and how much of it is a private copy. */
export interface Mapping {
  readonly start: number
  readonly end: number
  readonly perms: string
  readonly path: string
  /** kB of anonymous pages (copies made on write): such a mapping is never dropped */
  readonly anonymousKb: number
}

/** Linux's MADV_DONTNEED: the pages leave this process; a file's page is read back on its next use. */
const MADV_DONTNEED = 4

/**
 * Hands start-up's machine code back to the kernel: the executable's read-only mappings (Bun's code and
 * read-only data) leave this process's resident set, and the pages a request then touches come back from the
 * page cache on first use (a minor fault each). Start-up runs code no request runs again — migrations, schema
 * builders, and the optimizing compilers that compiled them — and it would stay resident for the life of the
 * process: idle RSS after the bench's setup 70.8 → ~40 MB, and after 2,000 requests and a quiet 5 s 80.7 → 76.3
 * (bench/README.md, 2026-11-29). Only mappings the process never wrote are dropped (no anonymous pages), so
 * nothing but clean file pages goes. Linux only; anywhere else, or when the C library cannot be reached, it does
 * nothing. Returns the kB of resident pages it advised away.
 */
export function releaseCodePages(): number {
  if (process.platform !== 'linux') return 0
  let smaps: string
  let executable: string
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8')
    executable = realpathSync(process.execPath)
  } catch {
    return 0
  }
  const madvise = openMadvise()
  if (!madvise) return 0
  let releasedKb = 0
  for (const { mapping, rssKb } of droppableCodeMappings(parseSmaps(smaps), executable)) {
    if (madvise(mapping.start, mapping.end - mapping.start, MADV_DONTNEED) === 0) releasedKb += rssKb
  }
  return releasedKb
}

/** The executable's own mappings that hold only clean file pages: never writable, never copied on write. */
export function droppableCodeMappings(mappings: ReadonlyArray<Mapping & { rssKb: number }>, executable: string) {
  return mappings.filter((m) => m.path === executable && !m.perms.includes('w') && m.anonymousKb === 0).map((mapping) => ({ mapping, rssKb: mapping.rssKb }))
}

const HEADER = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/
const FIELD = /^(Rss|Anonymous):\s+(\d+) kB$/

/** /proc/<pid>/smaps → its mappings, with each one's resident and anonymous kB. */
export function parseSmaps(text: string): Array<Mapping & { rssKb: number }> {
  const out: Array<{ start: number; end: number; perms: string; path: string; anonymousKb: number; rssKb: number }> = []
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line)
    if (header) {
      out.push({ start: parseInt(header[1]!, 16), end: parseInt(header[2]!, 16), perms: header[3]!, path: header[4]!, anonymousKb: 0, rssKb: 0 })
      continue
    }
    const field = FIELD.exec(line)
    const last = out[out.length - 1]
    if (!field || !last) continue
    if (field[1] === 'Rss') last.rssKb = Number(field[2])
    else last.anonymousKb = Number(field[2])
  }
  return out
}

type Madvise = (address: number, length: number, advice: number) => number

function openMadvise(): Madvise | undefined {
  for (const name of ['libc.so.6', 'libc.so']) {
    try {
      const lib = dlopen(name, { madvise: { args: [FFIType.u64, FFIType.u64, FFIType.i32], returns: FFIType.i32 } })
      return (address, length, advice) => lib.symbols.madvise(address, length, advice)
    } catch {
      // try the next name (musl ships libc.so)
    }
  }
  return undefined
}
