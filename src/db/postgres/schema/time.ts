import { sql } from 'drizzle-orm'
import { bigint } from 'drizzle-orm/pg-core'

/**
 * Unix seconds, as SQLite's `unixepoch()` stores them. bigint, not integer: int4 ends in January 2038 and an
 * expiry may be set past it. `mode: 'number'` keeps the row types those of the SQLite schema.
 */
export const unixSeconds = (name: string) => bigint(name, { mode: 'number' })

/** The column default for "now", in unix seconds (SQLite: `(unixepoch())`). */
export const nowSeconds = sql`(extract(epoch from now()))::bigint`

/** A quota amount: new-api's quotas (500,000 per US$) pass 2^31 at about US$4,300, so int8. */
export const quotaAmount = (name: string) => bigint(name, { mode: 'number' })
