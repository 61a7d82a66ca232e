import type { OptionStore } from '../../options/store'
import mark from '../../ui/assets/mark.svg' with { type: 'text' }

/** What `/favicon.ico` answers: the logo's own bytes, a redirect to it, or the built-in mark. */
export type Favicon = { kind: 'bytes'; type: string; body: Uint8Array } | { kind: 'redirect'; url: string }

const DATA_URL = /^data:(image\/[a-z.+-]+);base64,(.+)$/

/** The Logo option (already checked: '', https URL, or a base64 image data: URL) as a favicon. */
export function faviconFor(logo: string): Favicon {
  const data = DATA_URL.exec(logo)
  if (data) return { kind: 'bytes', type: data[1]!, body: Buffer.from(data[2]!, 'base64') }
  if (logo) return { kind: 'redirect', url: logo }
  return { kind: 'bytes', type: 'image/svg+xml', body: new TextEncoder().encode(mark) }
}

/** A text that is one https URL alone (new-api shows such a home page or About in a frame), else undefined. */
function pageUrl(text: string): URL | undefined {
  const trimmed = text.trim()
  if (!/^https:\/\/\S+$/.test(trimmed)) return undefined
  try {
    return new URL(trimmed)
  } catch {
    return undefined
  }
}

/** Where the console's page may load the operator's content from, beyond its own origin: the logo, framed pages. */
export interface ContentOrigins {
  img: string[]
  frame: string[]
  /** a widget's origin (Turnstile's): its script, its frame and its calls */
  widget?: string[]
  /** where the page may post a form: the EPay gateway the wallet's signed form goes to */
  form?: string[]
}

export function contentOrigins(options: Pick<OptionStore, 'get'>): ContentOrigins {
  const logo = options.get<string>('Logo')
  const img = logo.startsWith('https://') ? [new URL(logo).origin] : []
  const frame = ['HomePageContent', 'About'].flatMap((key) => pageUrl(options.get<string>(key))?.origin ?? [])
  return { img, frame: [...new Set(frame)] }
}
