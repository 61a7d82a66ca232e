/**
 * Spark's handshake signature against iFlytek's own worked example ("通用鉴权URL生成说明": APISecret
 * MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi, date Fri, 05 May 2023 10:43:39 GMT, GET /v1.1/chat on spark-api.xf-yun.com);
 * the signature is the one the docs print, the authorization its documented base64 (computed with openssl), and
 * the versions and domains as new-api reads model names.
 */
import { describe, expect, test } from 'bun:test'
import { parseSparkKey, signedSparkUrl, sparkDomain, sparkVersion } from '../../src/providers/spark/sign'

const KEY = { appId: 'a1b2c3d4', apiSecret: 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi', apiKey: 'addd2272b6d8b7c8abdd79531420ca3b' }
const DOCUMENTED_AUTHORIZATION =
  'YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBkYXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i'

describe('Spark signing', () => {
  test('the documented example: signature, authorization, date and host in the query', () => {
    const url = new URL(signedSparkUrl('https://spark-api.xf-yun.com/v1.1/chat', KEY, new Date('2023-05-05T10:43:39Z')))
    expect(url.origin + url.pathname).toBe('https://spark-api.xf-yun.com/v1.1/chat')
    expect(url.searchParams.get('date')).toBe('Fri, 05 May 2023 10:43:39 GMT')
    expect(url.searchParams.get('host')).toBe('spark-api.xf-yun.com')
    expect(url.searchParams.get('authorization')).toBe(DOCUMENTED_AUTHORIZATION)
    expect(Buffer.from(DOCUMENTED_AUTHORIZATION, 'base64').toString()).toContain('signature="z5gHdu3pxVV4ADMyk467wOWDQ9q6BQzR3nfMTjc/DaQ="')
  })

  test('the key is appid|api_secret|api_key; anything else is refused without quoting it', () => {
    expect(parseSparkKey(' a1b2c3d4|secret|apikey ')).toEqual({ appId: 'a1b2c3d4', apiSecret: 'secret', apiKey: 'apikey' })
    for (const bad of ['onlyone', 'a|b', 'a||c', 'a|b|c|d']) expect(() => parseSparkKey(bad)).toThrow('APPID|APISecret|APIKey')
  })

  test('the version from the model name, else the channel\'s other, else v1.1; its domain', () => {
    expect(sparkVersion('SparkDesk-v3.5', '')).toBe('v3.5')
    expect(sparkVersion('SparkDesk', 'v4.0')).toBe('v4.0')
    expect(sparkVersion('SparkDesk', '')).toBe('v1.1')
    expect(() => sparkVersion('SparkDesk-latest', '')).toThrow('not a Spark API version')
    expect(['v1.1', 'v2.1', 'v3.1', 'v3.5', 'v4.0', 'v5.0'].map(sparkDomain)).toEqual(['lite', 'generalv2', 'generalv3', 'generalv3.5', '4.0Ultra', 'generalv5.0'])
  })
})
