/**
 * A fake of Telegram's login widget (https://core.telegram.org/widgets/login), reached through PROVIDER_ENDPOINTS'
 * `telegram` entry (telegram.org and oauth.telegram.org alike). Its script `/js/telegram-widget.js` reads the
 * `data-telegram-login` and `data-auth-url` attributes of its own tag and puts a frame from "oauth.telegram.org"
 * (`/embed/<bot>`) before it, as Telegram's does; the frame's button sends the top page to the auth URL with the
 * account's fields and the hash Telegram computes: HMAC-SHA-256 of the data-check-string under SHA-256(bot token).
 */
import { createHash, createHmac } from 'node:crypto'

export interface TelegramAccount {
  id: number
  first_name: string
  last_name?: string
  username?: string
  photo_url?: string
}

/** The widget's fields for this account, signed as Telegram signs them (auth_date: now, or as given). */
export function signTelegram(botToken: string, account: TelegramAccount, authDate = Math.floor(Date.now() / 1000)): URLSearchParams {
  const fields: Record<string, string> = { auth_date: String(authDate) }
  for (const [key, value] of Object.entries(account)) if (value !== undefined) fields[key] = String(value)
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n')
  const hash = createHmac('sha256', createHash('sha256').update(botToken).digest()).update(checkString).digest('hex')
  return new URLSearchParams({ ...fields, hash })
}

const WIDGET_SCRIPT = (origin: string) => `(function () {
  var tag = document.currentScript
  var bot = tag.getAttribute('data-telegram-login')
  var frame = document.createElement('iframe')
  frame.src = ${JSON.stringify(origin)} + '/embed/' + encodeURIComponent(bot) + '?origin=' + encodeURIComponent(location.origin) +
    '&return_to=' + encodeURIComponent(tag.getAttribute('data-auth-url') || location.href) + '&size=' + (tag.getAttribute('data-size') || 'large')
  frame.title = 'Telegram Login'
  frame.width = '240'
  frame.height = '48'
  frame.style.border = 'none'
  tag.parentNode.insertBefore(frame, tag)
})()`

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export interface FakeTelegram {
  url: string
  account: TelegramAccount
  /** the bots the frames were drawn for, and the origins they were drawn on */
  embeds: { bot: string; origin: string }[]
  stop(): void
}

export function startFakeTelegram(bot: { name: string; token: string }, account: TelegramAccount): FakeTelegram {
  const fake: FakeTelegram = { url: '', account, embeds: [], stop: () => server.stop(true) }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/js/telegram-widget.js') return new Response(WIDGET_SCRIPT(fake.url), { headers: { 'content-type': 'application/javascript' } })
      const embed = /^\/embed\/([A-Za-z0-9_]+)$/.exec(url.pathname)
      if (!embed) return new Response('not found', { status: 404 })
      fake.embeds.push({ bot: embed[1]!, origin: url.searchParams.get('origin') ?? '' })
      // a frame for another bot signs nothing the gateway would accept: Telegram answers "Bot domain invalid"
      if (embed[1] !== bot.name) return new Response('<p>Bot domain invalid</p>', { headers: { 'content-type': 'text/html' } })
      const returnTo = url.searchParams.get('return_to') ?? ''
      const target = `${returnTo}${returnTo.includes('?') ? '&' : '?'}${signTelegram(bot.token, fake.account)}`
      const page = `<!doctype html><html><body><button id="login" type="button">Log in as ${escapeHtml(fake.account.first_name)}</button>
<script>document.getElementById('login').onclick = function () { window.top.location.href = ${JSON.stringify(target)} }</script></body></html>`
      return new Response(page, { headers: { 'content-type': 'text/html' } })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
