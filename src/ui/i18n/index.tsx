import { createContext, type ComponentChildren } from 'preact'
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks'
import { browserLocale, translate, type Locale, type MessageKey, type Params } from './catalog'

export type { Locale, MessageKey } from './catalog'
export { LOCALES } from './catalog'

const STORAGE_KEY = 'tollgate.locale'

export interface I18n {
  locale: Locale
  setLocale(locale: Locale): void
  t(key: MessageKey, params?: Params): string
}

const I18nContext = createContext<I18n | null>(null)

function initialLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY)
  if (stored === 'en' || stored === 'zh-CN') return stored
  return browserLocale(navigator.languages ?? [navigator.language])
}

/** Chosen language: remembered in localStorage, first taken from the browser; mirrored on `<html lang>`. */
export function I18nProvider({ children }: { children: ComponentChildren }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale)
  useEffect(() => {
    document.documentElement.lang = locale
  }, [locale])
  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(STORAGE_KEY, next)
    setLocaleState(next)
  }, [])
  const value = useMemo<I18n>(() => ({ locale, setLocale, t: (key, params) => translate(locale, key, params) }), [locale, setLocale])
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>
}

export function useI18n(): I18n {
  const value = useContext(I18nContext)
  if (!value) throw new Error('useI18n outside I18nProvider')
  return value
}
