import { useEffect, useState } from 'preact/hooks'

/** The theme's chart colours, read from the CSS custom properties in theme.css (light or dark, whichever applies). */
export interface ChartTheme {
  series: string[]
  text: string
  muted: string
  border: string
}

function readChartTheme(): ChartTheme {
  const style = getComputedStyle(document.documentElement)
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback
  return {
    series: [1, 2, 3, 4, 5, 6].map((i) => read(`--chart-${i}`, '#2151c5')),
    text: read('--text', '#1b1f24'),
    muted: read('--muted', '#59616c'),
    border: read('--border', '#d9dde3'),
  }
}

/** The chart theme, read again whenever the theme changes: the system's scheme or `<html data-theme>`. */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(readChartTheme)
  useEffect(() => {
    const update = () => setTheme(readChartTheme())
    const media = matchMedia('(prefers-color-scheme: dark)')
    media.addEventListener('change', update)
    const observer = new MutationObserver(update)
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
    return () => {
      media.removeEventListener('change', update)
      observer.disconnect()
    }
  }, [])
  return theme
}

/** `#rrggbb` (or `#rgb`) with an alpha, for the fill under a stacked series; other colour forms stay opaque. */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1]
  if (!hex) return color
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16))
  return `rgba(${r}, ${g}, ${b}, ${alpha})`
}
