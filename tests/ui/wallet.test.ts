import { describe, expect, test } from 'bun:test'
import { checkCode, checkTransfer, CODE_MAX, invitationLink } from '../../src/ui/lib/wallet'

describe('wallet checks', () => {
  test('a redemption code is required and at most the server limit', () => {
    expect(checkCode('')).toBe('required')
    expect(checkCode('   ')).toBe('required')
    expect(checkCode(' abc ')).toBeUndefined()
    expect(checkCode('x'.repeat(CODE_MAX))).toBeUndefined()
    expect(checkCode('x'.repeat(CODE_MAX + 1))).toBe('codeLength')
  })

  test('a transfer is typed in US$ like every amount: made quota units, at least US$1 and at most what is available', () => {
    const limits = { minimum: 500_000, available: 1_200_000, perUnit: 500_000 }
    expect(checkTransfer('', limits)).toEqual({ error: 'required' })
    expect(checkTransfer('  ', limits)).toEqual({ error: 'required' })
    expect(checkTransfer('abc', limits)).toEqual({ error: 'number' })
    expect(checkTransfer('-1', limits)).toEqual({ error: 'number' })
    expect(checkTransfer('0.99', limits)).toEqual({ error: 'minimum' })
    expect(checkTransfer('1', limits)).toEqual({ quota: 500_000 })
    expect(checkTransfer('2.4', limits)).toEqual({ quota: 1_200_000 })
    expect(checkTransfer(' 1.5 ', limits)).toEqual({ quota: 750_000 })
    expect(checkTransfer('2.400002', limits)).toEqual({ error: 'available' })
    expect(checkTransfer('1', { ...limits, available: 0 })).toEqual({ error: 'available' })
  })

  test('the invitation link uses the public address when set, without a doubled slash', () => {
    expect(invitationLink('Ab3', undefined, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/register?aff=Ab3')
    expect(invitationLink('Ab3', '', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/register?aff=Ab3')
    expect(invitationLink('Ab3', 'https://gw.example.com/', 'http://127.0.0.1:3000')).toBe('https://gw.example.com/register?aff=Ab3')
  })
})
