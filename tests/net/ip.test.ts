import { describe, expect, test } from 'bun:test'
import { isIPv4 } from 'node:net'
import { ipFamily, ipv4Number, parseIpEntry, unmapIPv4 } from '../../src/net/ip'

describe('ipv4Number: the same addresses net.isIPv4 takes, as numbers', () => {
  test.each([
    ['0.0.0.0', 0],
    ['127.0.0.1', 0x7f000001],
    ['10.1.2.3', 0x0a010203],
    ['255.255.255.255', 0xffffffff],
    ['192.168.100.10', 0xc0a8640a],
  ])('%p → %p', (text, value) => {
    expect(ipv4Number(text)).toBe(value)
    expect(isIPv4(text)).toBe(true)
  })

  test.each([
    '', '.', '1.2.3', '1.2.3.4.5', '1.2.3.', '.1.2.3', '1..2.3', '256.1.1.1', '1.2.3.256', '01.2.3.4', '1.2.3.04', '00.0.0.0',
    '1.2.3.4 ', ' 1.2.3.4', '1.2.3.4:80', '1.2.3.-4', '+1.2.3.4', '0x1.2.3.4', '1e2.1.1.1', '99999999999.1.1.1', '::1', 'unknown',
    '１.2.3.4', // a full-width digit
  ])('%p is not an IPv4 address', (text) => {
    expect(ipv4Number(text)).toBe(-1)
    expect(isIPv4(text)).toBe(false)
  })
})

test.each([
  ['10.1.2.3', 'ipv4'],
  ['::1', 'ipv6'],
  ['2001:db8::7', 'ipv6'],
  ['::ffff:10.1.2.3', 'ipv6'],
  ['fe80::1%eth0', undefined],
  ['[::1]', undefined],
  ['::1:80:', undefined],
  ['garbage', undefined],
  ['', undefined],
])('ipFamily(%p) → %p', (text, family) => {
  expect(ipFamily(text)).toBe(family as 'ipv4' | 'ipv6' | undefined)
})

test.each([
  ['::ffff:10.1.2.3', '10.1.2.3'],
  ['::FFFF:10.1.2.3', '10.1.2.3'],
  ['::ffff:a01:203', '10.1.2.3'],
  ['::ffff:7f00:1', '127.0.0.1'],
  ['::ffff:999.1.2.3', '::ffff:999.1.2.3'],
  ['::ffff:1.2.3', '::ffff:1.2.3'],
  ['2001:db8::7', '2001:db8::7'],
  ['::1', '::1'],
  ['10.1.2.3', '10.1.2.3'],
  ['', ''],
])('unmapIPv4(%p) → %p', (ip, plain) => {
  expect(unmapIPv4(ip)).toBe(plain)
})

test('parseIpEntry: addresses and ranges of both families; ports, zones and bad prefixes are not entries', () => {
  expect(parseIpEntry('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' })
  expect(parseIpEntry('fd00::/8')).toEqual({ address: 'fd00::', prefix: 8, family: 'ipv6' })
  expect(parseIpEntry('::1')).toEqual({ address: '::1', prefix: undefined, family: 'ipv6' })
  for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/8/8', '10.0.0.0/', '10.0.0.0/x', 'fe80::1%eth0', '1.2.3.4:80', '']) expect(parseIpEntry(bad)).toBeUndefined()
})
