import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { faviconFor } from './logo'

/** new-api's public text routes and the option each answers (as a string in `data`, '' when unset). */
const TEXT_ROUTES = {
  '/api/notice': 'Notice',
  '/api/about': 'About',
  '/api/home_page_content': 'HomePageContent',
  '/api/user-agreement': 'legal.user_agreement',
  '/api/privacy-policy': 'legal.privacy_policy',
} as const

// an operator's SVG served from this origin must never run as a page: no scripts, no loads, a sandbox
const IMAGE_HEADERS = { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox", 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' }

/**
 * The instance's public face, readable logged out: the texts the operator publishes (home page, notice,
 * about, user agreement, privacy policy; the browser renders and sanitizes them) and the favicon.
 */
export function siteModule(deps: Pick<AppDeps, 'options'>) {
  const app = new Elysia({ name: 'site' })
  for (const [path, key] of Object.entries(TEXT_ROUTES)) app.get(path, () => ok(deps.options.get<string>(key)))
  return app.get('/favicon.ico', () => {
    const icon = faviconFor(deps.options.get<string>('Logo'))
    if (icon.kind === 'redirect') return new Response(null, { status: 302, headers: { location: icon.url, 'cache-control': 'no-cache' } })
    return new Response(icon.body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': icon.type, ...IMAGE_HEADERS } })
  })
}
