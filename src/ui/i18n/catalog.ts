import { en } from './en'
import { zhCN } from './zh-CN'
import type { MessageKey } from './message-key'

export type { MessageKey } from './message-key'
export type Locale = 'en' | 'zh-CN'
/** Each language by its own name, and the few letters the top bar's compact menu shows. */
export const LOCALES: readonly { id: Locale; label: string; short: string }[] = [
  { id: 'en', label: 'English', short: 'EN' },
  { id: 'zh-CN', label: '简体中文', short: '简' },
]

const catalogs: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zhCN }

export type Params = Record<string, string | number>

/** The message in the locale, `{name}` placeholders filled. */
export function translate(locale: Locale, key: MessageKey, params?: Params): string {
  const text = catalogs[locale][key] ?? en[key] ?? key
  if (!params) return text
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
}

/** The browser's first language we have, English otherwise. */
export function browserLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    if (language.toLowerCase().startsWith('zh')) return 'zh-CN'
    if (language.toLowerCase().startsWith('en')) return 'en'
  }
  return 'en'
}
