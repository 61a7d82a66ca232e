import { describe, expect, test } from 'bun:test'
import {
  BedrockKeyError,
  bedrockRuntimeUrl,
  parseBedrockKey,
  shortTermKeyRegion,
  signBedrockRequest,
  signSigV4,
} from '../../../src/providers/signing/sigv4.ts'
import { rawTarget, verifySigV4, type ArrivedRequest } from '../../helpers/fake-upstreams/sigv4-verify.ts'

// AWS's published SigV4 test suite (aws-sig-v4-test-suite): its credentials, scope and time.
const AKID = 'AKIDEXAMPLE'
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY'
const SUITE_TIME = new Date('2015-08-30T12:36:00Z')
const SCOPE = { service: 'service', region: 'us-east-1' }
const HOST = 'example.amazonaws.com'
const STS_TOKEN =
  'AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA=='
const UNRESERVED = '-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

interface Vector {
  name: string
  method: string
  /** request target as the suite writes it */
  target: string
  headers?: Record<string, string>
  body?: string
  token?: string
  signed: string
  signature: string
}

/** The suite's cases that apply to a signer of HTTP requests that never signs content-type (aws4fetch). */
const VECTORS: Vector[] = [
  { name: 'get-vanilla', method: 'GET', target: '/', signed: 'host;x-amz-date', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31' },
  { name: 'get-vanilla-query-order-key-case', method: 'GET', target: '/?Param2=value2&Param1=value1', signed: 'host;x-amz-date', signature: 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500' },
  { name: 'get-vanilla-query-unreserved', method: 'GET', target: `/?${UNRESERVED}=${UNRESERVED}`, signed: 'host;x-amz-date', signature: '9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197' },
  { name: 'get-vanilla-utf8-query', method: 'GET', target: '/?ሴ=bar', signed: 'host;x-amz-date', signature: '2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04' },
  { name: 'get-unreserved', method: 'GET', target: `/${UNRESERVED}`, signed: 'host;x-amz-date', signature: '07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f' },
  { name: 'get-header-value-trim', method: 'GET', target: '/', headers: { 'My-Header1': 'value1', 'My-Header2': '"a   b   c"' }, signed: 'host;my-header1;my-header2;x-amz-date', signature: 'acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736' },
  { name: 'post-vanilla', method: 'POST', target: '/', signed: 'host;x-amz-date', signature: '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b' },
  { name: 'post-vanilla-query', method: 'POST', target: '/?Param1=value1', signed: 'host;x-amz-date', signature: '28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11' },
  { name: 'post-header-key-sort', method: 'POST', target: '/', headers: { 'My-Header1': 'value1' }, signed: 'host;my-header1;x-amz-date', signature: 'c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c' },
  { name: 'post-header-value-case', method: 'POST', target: '/', headers: { 'My-Header1': 'VALUE1' }, signed: 'host;my-header1;x-amz-date', signature: 'cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d' },
  { name: 'post-sts-header-before', method: 'POST', target: '/', token: STS_TOKEN, signed: 'host;x-amz-date;x-amz-security-token', signature: '85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead' },
]

const authz = (v: Pick<Vector, 'signed' | 'signature'>) =>
  `AWS4-HMAC-SHA256 Credential=${AKID}/20150830/us-east-1/service/aws4_request, SignedHeaders=${v.signed}, Signature=${v.signature}`

describe('SigV4 signing against AWS test vectors', () => {
  for (const v of VECTORS) {
    test(v.name, async () => {
      const headers = await signSigV4(
        { method: v.method, url: `https://${HOST}${v.target}`, headers: v.headers, body: v.body },
        { accessKeyId: AKID, secretAccessKey: SECRET, sessionToken: v.token },
        SCOPE,
        SUITE_TIME,
      )
      expect(headers.authorization).toBe(authz(v))
      expect(headers['x-amz-date']).toBe('20150830T123600Z')
    })
  }
})

/** A suite case as it arrives at a server: the raw request target, lowercased headers. */
function arrived(v: Vector, authorization = authz(v)): ArrivedRequest {
  const [rawPath, rawQuery = ''] = v.target.split('?') as [string, string?]
  const headers: Record<string, string> = { host: HOST, 'x-amz-date': '20150830T123600Z', authorization }
  for (const [k, val] of Object.entries(v.headers ?? {})) headers[k.toLowerCase()] = val
  if (v.token) headers['x-amz-security-token'] = v.token
  return { method: v.method, rawPath, rawQuery, headers, body: new TextEncoder().encode(v.body ?? '') }
}

const verifyOpts = { ...SCOPE, now: SUITE_TIME, secretFor: (id: string) => (id === AKID ? SECRET : undefined) }

describe('the test verifier agrees with the AWS test vectors', () => {
  const cases: Vector[] = [
    ...VECTORS,
    { name: 'get-utf8', method: 'GET', target: '/ሴ', signed: 'host;x-amz-date', signature: '8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85' },
    {
      name: 'post-x-www-form-urlencoded',
      method: 'POST',
      target: '/',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'Param1=value1',
      signed: 'content-type;host;x-amz-date',
      signature: 'ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a',
    },
  ]
  for (const v of cases) {
    test(v.name, () => {
      expect(verifySigV4(arrived(v), verifyOpts).ok).toBe(true)
      const wrong = verifySigV4(arrived(v, authz({ ...v, signature: v.signature.replace(/^./, (c) => (c === '0' ? '1' : '0')) })), verifyOpts)
      expect(wrong).toMatchObject({ ok: false, status: 403, type: 'InvalidSignatureException' })
    })
  }
})

describe('Bedrock keys', () => {
  test("new-api's formats", () => {
    expect(parseBedrockKey('AKIAEXAMPLE|secret/with+chars|us-west-2')).toEqual({ kind: 'sigv4', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/with+chars', region: 'us-west-2' })
    expect(parseBedrockKey(' ABSKQmVkcm9ja0FQSUtleS1example | eu-central-1 ')).toEqual({ kind: 'bearer', token: 'ABSKQmVkcm9ja0FQSUtleS1example', region: 'eu-central-1' })
  })

  test('a bare short-term API key names its own region', () => {
    const presigned = 'bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAEXAMPLE%2F20250701%2Fap-northeast-1%2Fbedrock%2Faws4_request&X-Amz-Date=20250701T000000Z&X-Amz-Expires=43200&X-Amz-SignedHeaders=host&X-Amz-Signature=abc&Version=1'
    const key = 'bedrock-api-key-' + Buffer.from(presigned).toString('base64')
    expect(shortTermKeyRegion(key)).toBe('ap-northeast-1')
    expect(parseBedrockKey(key)).toEqual({ kind: 'bearer', token: key, region: 'ap-northeast-1' })
  })

  test('bad keys are refused naming the expected format, never echoing the key', () => {
    for (const bad of ['ABSKsecretvalue', 'AKIA|SECRETPART|', 'AKIA|SECRETPART|notaregion', 'AKIA|SECRETPART|us-east-1|SESSIONTOKEN', '']) {
      let err: unknown
      try {
        parseBedrockKey(bad)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(BedrockKeyError)
      const e = err as BedrockKeyError
      expect(e.status).toBe(400)
      expect(e.message).toContain('ACCESS_KEY_ID|SECRET_ACCESS_KEY|REGION')
      for (const secret of ['SECRETPART', 'secretvalue', 'SESSIONTOKEN']) expect(e.message).not.toContain(secret)
    }
  })

  test('runtime URLs per region', () => {
    expect(bedrockRuntimeUrl('us-east-1')).toBe('https://bedrock-runtime.us-east-1.amazonaws.com')
    expect(bedrockRuntimeUrl('cn-north-1')).toBe('https://bedrock-runtime.cn-north-1.amazonaws.com.cn')
  })
})

describe('signBedrockRequest', () => {
  const key = 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|us-east-1'
  const url = `${bedrockRuntimeUrl('us-east-1')}/model/${encodeURIComponent('us.anthropic.claude-sonnet-4-5-20250929-v1:0')}/converse`
  const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'héllo' }] }] })
  const opts = { service: 'bedrock', region: 'us-east-1', secretFor: (id: string) => (id === 'AKIAIOSFODNN7EXAMPLE' ? 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' : undefined) }
  const arrive = (headers: Record<string, string>, sent = body, at = url): ArrivedRequest => ({
    method: 'POST',
    ...rawTarget(at),
    headers: { host: new URL(at).host, ...headers },
    body: new TextEncoder().encode(sent),
  })

  test('a model id with a colon (sent as %3A) verifies; body, headers and the secret are covered', async () => {
    const headers = await signBedrockRequest({ method: 'POST', url, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body }, key)
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;host;x-amz-date, Signature=[0-9a-f]{64}$/)
    expect(headers['content-type']).toBe('application/json')
    const ok = verifySigV4(arrive(headers), opts)
    expect(ok.ok && ok.canonicalRequest.split('\n')[1]).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%253A0/converse')
    expect(verifySigV4(arrive(headers, body.replace('héllo', 'hello')), opts)).toMatchObject({ ok: false, type: 'InvalidSignatureException' })
    expect(verifySigV4(arrive({ ...headers, accept: 'text/plain' }), opts)).toMatchObject({ ok: false, type: 'InvalidSignatureException' })
    expect(verifySigV4(arrive(headers, body, url.replace('%3A', ':')), opts)).toMatchObject({ ok: false, type: 'InvalidSignatureException' })
    const otherSecret = await signBedrockRequest({ method: 'POST', url, body }, key.replace('EXAMPLEKEY', 'EXAMPLEKEZ'))
    expect(verifySigV4(arrive(otherSecret), opts)).toMatchObject({ ok: false, type: 'InvalidSignatureException' })
  })

  test('the scope names the key region and service bedrock; a stale date is refused', async () => {
    const west = await signBedrockRequest({ method: 'POST', url, body }, key.replace('us-east-1', 'us-west-2'))
    expect(verifySigV4(arrive(west), opts)).toMatchObject({ ok: false, message: 'Credential should be scoped to a valid region. ' })
    const old = await signBedrockRequest({ method: 'POST', url, body }, key, new Date(Date.now() - 10 * 60_000))
    expect(verifySigV4(arrive(old), opts)).toMatchObject({ ok: false, message: expect.stringContaining('Signature expired') })
  })

  test('a Bedrock API key goes as a bearer token, nothing signed', async () => {
    const headers = await signBedrockRequest({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body }, 'ABSKexample|us-east-1')
    expect(headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer ABSKexample' })
  })
})
