/**
 * Authenticated encryption for secrets at rest (channel keys): AES-256-GCM through WebCrypto, a fresh
 * random 12-byte IV per write, and a versioned text format `v1:<iv base64>:<ciphertext base64>` so the
 * scheme can change later without guessing. The AES key is derived with HKDF-SHA-256 from the app's
 * crypto secret (CRYPTO_SECRET or the generated 0600 file), never used raw.
 */
export interface SecretBox {
  encrypt(plaintext: string): Promise<string>
  decrypt(sealed: string): Promise<string>
}

class SecretBoxError extends Error {}

const VERSION = 'v1'
const IV_BYTES = 12
const HKDF_SALT = new TextEncoder().encode('tollgate')
const HKDF_INFO = new TextEncoder().encode('tollgate channel keys v1')

export function createSecretBox(secret: string): SecretBox {
  if (!secret) throw new SecretBoxError('the crypto secret is empty')
  const key = deriveKey(secret)
  return {
    async encrypt(plaintext) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
      const data = new TextEncoder().encode(plaintext)
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await key, data)
      return `${VERSION}:${toBase64(iv)}:${toBase64(new Uint8Array(sealed))}`
    },
    async decrypt(sealed) {
      const [version, ivText, ctText, extra] = sealed.split(':')
      if (version !== VERSION || !ivText || !ctText || extra !== undefined) {
        throw new SecretBoxError('not a sealed secret (expected v1:<iv>:<ciphertext>)')
      }
      const iv = fromBase64(ivText)
      if (iv.length !== IV_BYTES) throw new SecretBoxError('sealed secret has a bad IV')
      try {
        const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await key, fromBase64(ctText))
        return new TextDecoder().decode(plain)
      } catch {
        throw new SecretBoxError('cannot decrypt: wrong CRYPTO_SECRET or tampered data')
      }
    },
  }
}

async function deriveKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: HKDF_INFO },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64')
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bytes = Buffer.from(text, 'base64')
  const out = new Uint8Array(new ArrayBuffer(bytes.length))
  out.set(bytes)
  return out
}
