import { expect, test } from 'bun:test'
import { browserLocale, translate } from '../../src/ui/i18n/catalog'
import { en } from '../../src/ui/i18n/en'
import { zhCN } from '../../src/ui/i18n/zh-CN'

test('both catalogs hold the same keys, none empty, and the same placeholders', () => {
  expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort())
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
  for (const [key, text] of Object.entries(en)) {
    const chinese = zhCN[key as keyof typeof en]
    expect({ key, empty: !text.trim() || !chinese.trim() }).toEqual({ key, empty: false })
    expect({ key, placeholders: placeholders(chinese) }).toEqual({ key, placeholders: placeholders(text) })
  }
})

test('the Chinese catalog is Chinese: no English sentence left untranslated', () => {
  // a value with three or more Latin words and no CJK character is an English sentence left behind
  const untranslated = Object.entries(zhCN).filter(([, text]) => !/[\u3400-\u9fff]/.test(text) && /([A-Za-z]+\W+){2,}[A-Za-z]+/.test(text.replace(/\{\w+\}/g, '')))
  expect(untranslated.filter(([key]) => !ALLOWED_LATIN.has(key))).toEqual([])
})
// product and client names read the same in both languages
const ALLOWED_LATIN = new Set<string>(Object.keys(zhCN).filter((key) => /snippet|client|sdk\b|\.tab\./i.test(key)))

test('placeholders fill; the browser language picks the default', () => {
  expect(translate('en', 'common.total', { count: 3 })).toBe('3 in total')
  expect(translate('zh-CN', 'common.total', { count: 3 })).toBe('共 3 条')
  expect(browserLocale(['zh-TW', 'en'])).toBe('zh-CN')
  expect(browserLocale(['fr-FR', 'en-GB'])).toBe('en')
  expect(browserLocale(['de'])).toBe('en')
})
