import type { OptionDefinition } from './option-definition'

/** The longest text an operator may publish (home page, notice, about, legal pages): the option route's own limit. */
const TEXT_MAX = 100_000
const LOGO_DATA = /^data:image\/(png|jpeg|gif|webp|svg\+xml|x-icon|vnd\.microsoft\.icon);base64,[A-Za-z0-9+/]+={0,2}$/

const text = (value: unknown) => ((value as string).length > TEXT_MAX ? `must be at most ${TEXT_MAX} characters` : undefined)

/** '' (the built-in mark), an https URL without credentials, or a base64 data: URL of an image. */
const logo = (value: unknown) => {
  const source = value as string
  if (source === '' || LOGO_DATA.test(source)) return undefined
  const fail = 'must be an https URL or a data:image/…;base64 URL (or empty for the built-in mark)'
  try {
    const url = new URL(source)
    if (url.protocol !== 'https:') return fail
    if (url.username || url.password) return 'must not carry credentials'
  } catch {
    return fail
  }
  return undefined
}

/**
 * The public face of an instance, under new-api's option names so an import keeps them. Texts are Markdown
 * (HTML inside is allowed and sanitized in the browser); HomePageContent and About may instead be a single
 * https URL, shown in a sandboxed frame.
 */
export const FACE_OPTIONS: Record<string, OptionDefinition> = {
  Logo: { type: 'string', default: '', description: "the instance's logo and favicon: an https URL or a data:image/…;base64 URL ('' = the built-in mark)", check: logo },
  Footer: { type: 'string', default: '', description: 'a line under every public page (Markdown; sanitized)', check: text },
  Notice: { type: 'string', default: '', description: 'announcement shown on the home page and the dashboard (Markdown; sanitized); GET /api/notice', check: text },
  HomePageContent: { type: 'string', default: '', description: "the home page (Markdown, or an https URL shown in a sandboxed frame); '' = the built-in welcome; GET /api/home_page_content", check: text },
  About: { type: 'string', default: '', description: 'the About page (Markdown, or an https URL shown in a sandboxed frame); GET /api/about', check: text },
  'legal.user_agreement': { type: 'string', default: '', description: "the user agreement page (Markdown); '' = no such page; GET /api/user-agreement", check: text },
  'legal.privacy_policy': { type: 'string', default: '', description: "the privacy policy page (Markdown); '' = no such page; GET /api/privacy-policy", check: text },
}
