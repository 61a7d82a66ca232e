import { beforeAll, describe, expect, test } from 'bun:test'
import { createPublicKey, createVerify } from 'node:crypto'
import {
  CLOUD_PLATFORM_SCOPE,
  GOOGLE_TOKEN_URI,
  ServiceAccountError,
  importPrivateKey,
  parseServiceAccount,
  serviceAccountOf,
  signAssertion,
} from '../../../src/providers/signing/google-service-account'
import { type TestServiceAccount, createTestServiceAccount } from '../../helpers/fake-upstreams/google-token'

let sa: TestServiceAccount
beforeAll(async () => {
  sa = await createTestServiceAccount({ tokenUri: 'https://oauth2.googleapis.com/token', projectId: 'tollgate-test' })
})

const without = (...fields: string[]) => JSON.stringify(Object.fromEntries(Object.entries(sa.fields).filter(([k]) => !fields.includes(k))))
const errorOf = (input: unknown): ServiceAccountError => {
  try {
    parseServiceAccount(input)
  } catch (error) {
    return error as ServiceAccountError
  }
  throw new Error('parsed')
}

describe('parseServiceAccount', () => {
  test('a key file as downloaded: project, email, PEM, key id and token_uri', () => {
    const account = parseServiceAccount(sa.json)
    expect(account).toEqual({
      projectId: 'tollgate-test', clientEmail: sa.clientEmail, privateKey: sa.fields.private_key!,
      privateKeyId: sa.privateKeyId, tokenUri: 'https://oauth2.googleapis.com/token',
    })
    expect(parseServiceAccount(JSON.parse(sa.json))).toEqual(account)
  })

  test('every missing field is named in one 400 on the key field', () => {
    const error = errorOf(without('client_email', 'private_key'))
    expect(error).toBeInstanceOf(ServiceAccountError)
    expect(error.status).toBe(400)
    expect(error.param).toBe('key')
    expect(error.message).toBe('the service account JSON key is missing client_email, private_key')
    expect(errorOf(without('project_id')).message).toEndWith('missing project_id')
    expect(errorOf({ ...sa.fields, token_uri: '' }).message).toEndWith('missing token_uri')
    expect(errorOf({ ...sa.fields, project_id: '  ' }).message).toEndWith('missing project_id')
  })

  test('a key trimmed to what new-api reads (no token_uri) posts to Google\'s token endpoint', () => {
    expect(parseServiceAccount(without('token_uri')).tokenUri).toBe(GOOGLE_TOKEN_URI)
  })

  test('not JSON, an array, another credential type: clear errors that never quote the key', () => {
    const broken = sa.json.slice(0, -20)
    const error = errorOf(broken)
    expect(error.message).toContain('not JSON')
    expect(error.message).not.toContain('PRIVATE KEY')
    expect(error.message).not.toContain(sa.clientEmail)
    expect(errorOf(`[${sa.json}]`).message).toContain('JSON array')
    expect(errorOf('"just a string"').message).toContain('an object')
    expect(errorOf({ type: 'authorized_user', client_id: 'x', refresh_token: 'y' }).message).toContain('"authorized_user"')
    expect(errorOf({ ...sa.fields, token_uri: 'file:///etc/passwd' }).message).toContain('not an http(s) URL')
    expect(errorOf({ ...sa.fields, client_email: 'nobody' }).message).toContain('not an email')
  })

  test('private keys: escaped newlines restored, PKCS#1 and encrypted keys and non-PEM refused by name', () => {
    const escaped = { ...sa.fields, private_key: sa.fields.private_key!.replace(/\n/g, '\\n') }
    expect(parseServiceAccount(escaped).privateKey).toBe(sa.fields.private_key!)
    const pkcs1 = sa.fields.private_key!.replace(/PRIVATE KEY/g, 'RSA PRIVATE KEY')
    expect(errorOf({ ...sa.fields, private_key: pkcs1 }).message).toContain('PKCS#1')
    expect(errorOf({ ...sa.fields, private_key: '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----' }).message).toContain('encrypted')
    expect(errorOf({ ...sa.fields, private_key: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' }).message).toContain('not a PEM private key')
    expect(errorOf({ ...sa.fields, private_key: '-----BEGIN PRIVATE KEY-----\n%%%%\n-----END PRIVATE KEY-----' }).message).toContain('not a PEM private key')
  })

  test('serviceAccountOf remembers a key string, errors included', () => {
    expect(serviceAccountOf(sa.json)).toBe(serviceAccountOf(sa.json))
    const bad = without('project_id')
    expect(() => serviceAccountOf(bad)).toThrow('missing project_id')
    expect(() => serviceAccountOf(bad)).toThrow(ServiceAccountError)
  })
})

describe('the JWT assertion', () => {
  test('a PEM that is base64 but no RSA key fails on import with a clear error', async () => {
    const junk = Buffer.from('not a key at all, just bytes that decode').toString('base64')
    const account = parseServiceAccount({ ...sa.fields, private_key: `-----BEGIN PRIVATE KEY-----\n${junk}\n-----END PRIVATE KEY-----\n` })
    const error = await importPrivateKey(account).catch((e: unknown) => e as ServiceAccountError)
    expect(error).toBeInstanceOf(ServiceAccountError)
    expect((error as Error).message).toBe(`private_key of ${sa.clientEmail} is not an RSA private key in PKCS#8 form (the key file may be damaged)`)
  })

  test('RS256 over header.claims, verified by node:crypto with the public key: iss, scope, aud, iat, exp, kid', async () => {
    const account = parseServiceAccount(sa.json)
    const jwt = await signAssertion(account, await importPrivateKey(account), 1_750_000_000)
    const [h, c, s] = jwt.split('.') as [string, string, string]
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT', kid: sa.privateKeyId })
    expect(JSON.parse(Buffer.from(c, 'base64url').toString())).toEqual({
      iss: sa.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: 'https://oauth2.googleapis.com/token', iat: 1_750_000_000, exp: 1_750_003_600,
    })
    const spki = Buffer.from(await crypto.subtle.exportKey('spki', sa.publicKey))
    const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' })
    const verify = (data: string) => createVerify('RSA-SHA256').update(data).verify(publicKey, Buffer.from(s, 'base64url'))
    expect(verify(`${h}.${c}`)).toBe(true)
    expect(verify(`${h}.${c}x`)).toBe(false)
    expect(jwt).not.toMatch(/[=+/]/) // base64url without padding
  })
})
