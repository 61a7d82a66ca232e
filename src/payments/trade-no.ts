import { randomBytes } from 'node:crypto'

/** A trade number: new-api's `USR<user>NO<random><unix seconds>` shape, with 10 random characters from the CSPRNG. */
export function newTradeNo(userId: number, now: number): string {
  const random = randomBytes(8).toString('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 10).padEnd(10, '0')
  return `USR${userId}NO${random}${now}`
}
