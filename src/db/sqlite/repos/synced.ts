/**
 * The repo with `sync` run before each of its methods except those listed (which stay in memory, or call
 * `sync` themselves only when they reach the database). `sync` writes the quota ledger's pending deltas,
 * so whatever a repo reads or writes next sees the balances as the relay left them. A failed `sync` is the
 * method's rejection, as any database error is.
 */
export function syncedBefore<T extends object>(repo: T, sync: () => void, except: readonly (keyof T)[]): T {
  const out = { ...repo }
  for (const key of Object.keys(repo) as (keyof T)[]) {
    const method = repo[key]
    if (typeof method !== 'function' || except.includes(key)) continue
    out[key] = (async (...args: unknown[]) => {
      sync()
      return method(...args)
    }) as T[keyof T]
  }
  return out
}
