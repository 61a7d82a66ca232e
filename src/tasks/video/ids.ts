import { randomBytes } from 'node:crypto'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** The id a client is given for a video: `task_` and 32 random letters and digits, as new-api's GenerateTaskID. The upstream's own id stays on the server. */
export function publicTaskId(): string {
  let id = 'task_'
  while (id.length < 37) {
    // bytes of 248 and up are skipped: 248 is the largest multiple of 62 under 256, so every letter is as likely
    for (const byte of randomBytes(40)) if (byte < 248 && id.length < 37) id += ALPHABET[byte % 62]
  }
  return id
}
