import { sha256 } from '../../crypto/sha256'

export const KEY_PREFIX = 'sk-'
const KEY_BODY_LENGTH = 48
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
// 248 = 4 × 62: bytes at or above it are thrown away so every character is equally likely
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length)
// Tollgate issues 48 characters; keys imported from new-api / one-api keep whatever length they were issued
// with (new-api: 48 letters and digits; early one-api: 32-character UUIDs), so any 16–128 letters and digits
const KEY_BODY = /^[A-Za-z0-9]{16,128}$/

/** A new key body: 48 letters and digits from the CSPRNG, by rejection sampling (no modulo bias). */
export function generateKeyBody(): string {
  let body = ''
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < UNBIASED_LIMIT) body += ALPHABET[byte % ALPHABET.length]
      if (body.length === KEY_BODY_LENGTH) break
    }
  }
  return body
}

/** The key as a client sends it, with or without `sk-`, reduced to its body; undefined if malformed. */
export function keyBodyOf(raw: string): string | undefined {
  const body = raw.startsWith(KEY_PREFIX) ? raw.slice(KEY_PREFIX.length) : raw
  return KEY_BODY.test(body) ? body : undefined
}

/** What tokens.key_hash stores: sha-256 of the body (so `sk-` is optional when presenting it). */
export const keyHash = (body: string): string => sha256(body)

/** What tokens.key_hint stores: the first and last four characters of the body. */
export const keyHint = (body: string): string => body.slice(0, 4) + body.slice(-4)

/** The key as lists show it: `sk-abcd**********wxyz`. */
export const maskedKey = (hint: string): string => `${KEY_PREFIX}${hint.slice(0, 4)}**********${hint.slice(4)}`
