import type { TestApp } from '../test-app'

/** A browser's cookie jar for one app, by cookie name. */
export class Jar {
  private cookies = new Map<string, string>()
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq).trim()
      const value = pair!.slice(eq + 1).trim()
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  get(name: string): string | undefined {
    return this.cookies.get(name)
  }
  header(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}
  }
}

export async function api(app: TestApp, jar: Jar, path: string, method = 'GET'): Promise<{ status: number; body: any }> {
  const response = await app.fetch(path, { method, headers: jar.header() })
  jar.take(response.headers)
  return { status: response.status, body: await response.json() }
}

/** /api/oauth/state, then the provider's authorize page (which answers at once), up to the redirect back: its query. */
export async function authorize(app: TestApp, jar: Jar, provider: string, action?: 'bind'): Promise<{ query: string; start: any }> {
  const start = await api(app, jar, `/api/oauth/state?provider=${provider}${action ? `&action=${action}` : ''}`)
  if (start.status !== 200) return { query: '', start }
  const response = await fetch(start.body.data.authorize_url, { redirect: 'manual' })
  const back = new URL(response.headers.get('location')!)
  return { query: back.search, start }
}

/** The whole flow as the console runs it: authorize, then hand the query to /api/oauth/<provider>. */
export async function signIn(app: TestApp, jar: Jar, provider: string, action?: 'bind') {
  const { query } = await authorize(app, jar, provider, action)
  return { ...(await api(app, jar, `/api/oauth/${provider}${query}`)), query }
}
