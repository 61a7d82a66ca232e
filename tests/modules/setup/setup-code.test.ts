/**
 * Setup is not first come, first served (issue #28, item 14): until root exists, a setup from the network needs
 * the one-time code the server prints in its log; this machine's own requests (socket peer on loopback, no
 * proxy header) and ROOT_PASSWORD need none. Wrong codes are limited per address.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { GatewayError } from '../../../src/errors'
import { createAttemptLimiter } from '../../../src/modules/setup/attempts'
import { createSetupCodeGate, type SetupAttempt } from '../../../src/modules/setup/code-gate'
import { isLocalRequest, setupCodeOf } from '../../../src/modules/setup/setup-code'
import { serve, type Served } from '../../ops/process'

const refusal = (run: () => void): { status: number; code: string; retry?: string } | undefined => {
  try {
    run()
    return undefined
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    return { status: error.status, code: error.code, ...(error.headers?.['retry-after'] ? { retry: error.headers['retry-after'] } : {}) }
  }
}

describe('the check, with the peer address given', () => {
  test('a page rebound to 127.0.0.1 (DNS rebinding) is not local: the Host header must name this machine', () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'app.localhost']) expect(isLocalRequest('127.0.0.1', new Headers({ host }))).toBe(true)
    for (const host of ['evil.example:3000', 'evil.example', '127.0.0.1.evil.example', '']) expect(isLocalRequest('127.0.0.1', new Headers(host ? { host } : {}))).toBe(false)
  })

  test('loopback peers without a proxy header are local; any other peer, a proxy, or no socket is not', () => {
    const none = new Headers({ host: 'localhost:3000' })
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].map((peer) => isLocalRequest(peer, none))).toEqual([true, true, true, true])
    expect(['192.0.2.2', '10.0.0.1', '::ffff:192.0.2.2', 'fd00::2', '', undefined].map((peer) => isLocalRequest(peer, none))).toEqual([false, false, false, false, false, false])
    // a proxy on this host connects from loopback for a stranger: X-Forwarded-For never makes a request local, it makes it remote
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) expect(isLocalRequest('127.0.0.1', new Headers({ [header]: '127.0.0.1' }))).toBe(false)
  })

  test('a missing or wrong code is 403; the right one (any case, dashes optional) passes; local needs none', () => {
    const gate = createSetupCodeGate('s'.repeat(43))
    expect(gate.code).toBe(setupCodeOf('s'.repeat(43)))
    expect(gate.code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/)
    expect(setupCodeOf('t'.repeat(43))).not.toBe(gate.code)
    const from = (address: string, given?: string, local = false): SetupAttempt => ({ local, address, given })
    expect(refusal(() => gate.check(from('192.0.2.10')))).toEqual({ status: 403, code: 'setup_code_required' })
    expect(refusal(() => gate.check(from('192.0.2.11', 'AAAA-BBBB-CCCC')))).toEqual({ status: 403, code: 'setup_code_wrong' })
    expect(refusal(() => gate.check(from('192.0.2.12', gate.code.toLowerCase().replaceAll('-', ''))))).toBeUndefined()
    expect(refusal(() => gate.check(from('127.0.0.1', undefined, true)))).toBeUndefined()
  })

  test('five attempts a minute per address, then 429 with Retry-After; the next minute opens again; the table is bounded', () => {
    let now = 1_000_000
    const limiter = createAttemptLimiter({ perWindow: 5, windowMs: 60_000, maxAddresses: 100, now: () => now })
    const gate = createSetupCodeGate('s'.repeat(43), limiter)
    const wrong = () => refusal(() => gate.check({ local: false, address: '198.51.100.7', given: 'WRONG' }))
    for (let i = 0; i < 5; i++) expect(wrong()).toMatchObject({ status: 403 })
    now += 20_000
    expect(wrong()).toEqual({ status: 429, code: 'rate_limited', retry: '40' })
    // even the right code waits: the limit is on attempts, not on failures
    expect(refusal(() => gate.check({ local: false, address: '198.51.100.7', given: gate.code }))).toMatchObject({ status: 429 })
    expect(refusal(() => gate.check({ local: false, address: '198.51.100.8', given: gate.code }))).toBeUndefined()
    now += 40_000
    expect(refusal(() => gate.check({ local: false, address: '198.51.100.7', given: gate.code }))).toBeUndefined()
    for (let i = 0; i < 1000; i++) limiter.take(`203.0.113.${i}`)
    expect(limiter.size).toBe(100)
  })
})

/** An address of this machine that is not loopback (the host's own), if it has one. */
const hostAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address

describe.skipIf(!hostAddress)('a server bound to 0.0.0.0 without ROOT_PASSWORD', () => {
  let dataDir: string
  let server: Served
  let remote: string
  let local: string
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tollgate-setup-code-'))
    server = await serve(dataDir, { HOST: '0.0.0.0' })
    remote = `http://${hostAddress}:${server.port}`
    local = `http://127.0.0.1:${server.port}`
  }, 30_000)
  afterAll(async () => {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const post = (base: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/setup`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username: 'owner', password: 'owner-password-1', confirmPassword: 'owner-password-1', ...body }) })

  test('prints the setup URL with the code; from the network the code is needed, once; from this machine it is not asked', async () => {
    const announced = server.lines().find((l) => String(l.msg).startsWith('setup pending'))!
    expect(announced.setup_url).toMatch(/\/setup\?code=[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/)
    const code = new URL(announced.setup_url).searchParams.get('code')!

    expect((await (await fetch(`${remote}/api/setup`)).json()).data).toEqual({ status: false, root_init: false, code_required: true })
    expect((await (await fetch(`${local}/api/setup`)).json()).data).toEqual({ status: false, root_init: false, code_required: false })
    // behind a proxy on this host (it connects from loopback): the code is asked for
    expect((await (await fetch(`${local}/api/setup`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).json()).data.code_required).toBe(true)

    const missing = await post(remote, {})
    expect(missing.status).toBe(403)
    expect(await missing.json()).toEqual({ success: false, message: expect.stringContaining('journalctl -u tollgate'), data: expect.objectContaining({ code: expect.any(String) }) })
    const wrong = await post(remote, { code: 'AAAA-BBBB-CCCC' })
    expect(wrong.status).toBe(403)
    expect((await wrong.json()).message).toContain('wrong setup code')
    const proxied = await post(local, {}, { 'x-forwarded-for': '203.0.113.9' })
    expect(proxied.status).toBe(403)

    const right = await post(remote, { code })
    expect(right.status).toBe(200)
    expect((await right.json()).data).toMatchObject({ username: 'owner', role: 100 })
    expect((await post(remote, { code, username: 'second' })).status).toBe(409)
    expect((await (await fetch(`${remote}/api/setup`)).json()).data).toEqual({ status: true, root_init: true, code_required: false })
  }, 30_000)
})
