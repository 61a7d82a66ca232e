import { useEffect, useState } from 'preact/hooks'

export type ThemeChoice = 'system' | 'light' | 'dark'
const STORAGE_KEY = 'tollgate.theme'

function stored(): ThemeChoice {
  const value = localStorage.getItem(STORAGE_KEY)
  return value === 'light' || value === 'dark' ? value : 'system'
}

/** Light, dark or the system's (`prefers-color-scheme`): `data-theme` on `<html>` overrides the media query. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(stored)
  useEffect(() => {
    const root = document.documentElement
    if (choice === 'system') root.removeAttribute('data-theme')
    else root.setAttribute('data-theme', choice)
    localStorage.setItem(STORAGE_KEY, choice)
  }, [choice])
  return [choice, setChoice]
}
