import { expect, test } from 'bun:test'
import { csvField, toCsv } from '../../src/csv'
import { fileSlug } from '../../src/ui/lib/csv'

test('plain cells stay as they are; empty values are empty cells', () => {
  expect(toCsv([['name', 'code', 'quota'], ['launch', 'abcd1234', 500000]])).toBe('name,code,quota\r\nlaunch,abcd1234,500000\r\n')
  expect(toCsv([[null, undefined, '', true]])).toBe(',,,true\r\n')
  expect(toCsv([])).toBe('')
})

test('commas, quotes and line breaks are quoted, quotes doubled', () => {
  expect(csvField('a,b')).toBe('"a,b"')
  expect(csvField('say "hi"')).toBe('"say ""hi"""')
  expect(csvField('two\nlines')).toBe('"two\nlines"')
  expect(csvField('cr\rlf')).toBe('"cr\rlf"')
  expect(toCsv([['x', 'a,"b"\r\nc']])).toBe('x,"a,""b""\r\nc"\r\n')
})

test('text that a spreadsheet would run as a formula is prefixed with an apostrophe', () => {
  expect(csvField('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"')
  expect(csvField('+1')).toBe("'+1")
  expect(csvField('-2+3')).toBe("'-2+3")
  expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)")
  expect(csvField('\tcmd')).toBe("'\tcmd")
  // only at the start, and numbers keep their sign
  expect(csvField('a=b')).toBe('a=b')
  expect(csvField(-5)).toBe('-5')
  expect(csvField('中文 name')).toBe('中文 name')
})

test('file names keep letters and digits of any script', () => {
  expect(fileSlug('Launch promo, 2026/05')).toBe('Launch-promo-2026-05')
  expect(fileSlug('春节 活动')).toBe('春节-活动')
  expect(fileSlug('../../')).toBe('export')
  expect(fileSlug('', 'codes')).toBe('codes')
})
