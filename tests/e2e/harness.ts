/**
 * End-to-end harness: the compiled gateway binary, started from an empty data dir, driven by Debian's
 * Chromium through playwright-core. Nothing here downloads a browser; nothing a test does leaves the machine.
 *
 *   const gw = await startGateway()
 *   const browser = await sharedBrowser()                       // one per test file
 *   const { page, watch } = await openPage(browser, { viewport: 'desktop', colorScheme: 'dark' })
 *   await page.goto(gw.url + '/setup')
 *   await page.getByLabel('Username').fill('root')           // find controls by role and label only
 *   …
 *   await screenshot(page, 'setup-desktop-dark')               // → tests/e2e/artifacts/setup-desktop-dark.png with SCREENSHOTS=1
 *   watch.assertClean()                                        // no console errors, page errors or outside requests
 *   await browser.close(); await gw.stop()
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from '../helpers/fake-upstreams'
import { cachedBinary } from './binary-cache'

export type { FakeUpstream } from '../helpers/fake-upstreams'

/**
 * Debian's Chromium: its headless shell (package chromium-headless-shell, the old headless mode) when installed,
 * else the full browser. The shell renders the same pages for about a third of the CPU (30 console page loads:
 * 7 s against 19 s), which on a two-core machine is most of what the browser tests cost.
 */
const CHROMIUM_PATH = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium'
/** Where screenshots go: tests/e2e/artifacts/ (gitignored), or SCREENSHOTS_DIR. */
const ARTIFACTS_DIR = process.env.SCREENSHOTS_DIR || join(import.meta.dir, 'artifacts')
/**
 * Per-test (and per-hook) timeout for e2e tests (the suite's 20 s is for in-process tests): a hang detector. A
 * beforeAll that launches the worker's Chromium, starts a gateway and seeds it took over 60 s in a full run on a
 * machine loaded 15 times over; a quiet machine takes a few seconds.
 */
export const E2E_TIMEOUT = 120_000

/** Whether the browser is installed; e2e files skip (loudly) without it. `.ci/run` installs it. */
export const browserAvailable = existsSync(CHROMIUM_PATH)
if (!browserAvailable) console.warn('e2e: /usr/bin/chromium is missing, browser tests are skipped (apt-get install -y chromium-headless-shell)')

// ---------------------------------------------------------------------------------------------------------
// the binary

let swept: true | undefined

/** Temp dirs are named tollgate-e2e-<test process pid>-…: bun test fires no 'exit' event to clean up on. */
const TEMP_PREFIX = 'tollgate-e2e-'

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Remove what earlier test processes left behind (they end without an 'exit' event, or were killed): their
 * binary and data dirs, and a gateway still running from such a dir (checked by its command line, so a
 * reused pid is never signalled).
 */
function sweepStale(): true {
  for (const name of readdirSync(tmpdir())) {
    const owner = new RegExp(`^${TEMP_PREFIX}(\\d+)-`).exec(name)?.[1]
    if (!owner || Number(owner) === process.pid || alive(Number(owner))) continue
    const dir = join(tmpdir(), name)
    try {
      const pid = Number(readFileSync(join(dir, 'gateway.pid'), 'utf8'))
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) process.kill(pid, 'SIGKILL')
    } catch {
      // no gateway, or it is gone
    }
    rmSync(dir, { recursive: true, force: true })
  }
  return true
}

/**
 * The compiled gateway's path: built once per source tree and shared by every file and worker of the run
 * (binary-cache.ts); the tree is hashed once per process. `TOLLGATE_E2E_BINARY=/path/to/tollgate`
 * uses a binary built elsewhere.
 */
export async function buildBinary(): Promise<string> {
  swept ??= sweepStale()
  return process.env.TOLLGATE_E2E_BINARY || cachedBinary() // each call marks the cached build as in use
}

export interface Gateway {
  /** http://127.0.0.1:PORT, no trailing slash */
  url: string
  port: number
  pid: number
  /** the data dir the binary was started with (empty at start) */
  dataDir: string
  /** the binary's stdout and stderr so far */
  logs(): string
  /** SIGTERM (SIGKILL after 5 s), then delete the temp dir */
  stop(): Promise<void>
}

const running = new Set<import('bun').Subprocess>()

/** A free loopback port: bind port 0, read it, let it go (startGateway retries if another process takes it first). */
async function freePort(): Promise<number> {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const port = probe.port!
  await probe.stop(true)
  return port
}

/**
 * Start the compiled binary on a free loopback port with an empty temp data dir and wait until `HEAD /`
 * answers 200. The binary sees only PATH, HOME (the temp dir), HOST=127.0.0.1 and `env`: no settings leak in
 * from the shell. Without `env.ROOT_PASSWORD` no user exists and the first visit runs setup.
 */
export async function startGateway(options: { env?: Record<string, string> } = {}): Promise<Gateway> {
  const binary = await buildBinary()
  const dir = mkdtempSync(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`))
  const dataDir = join(dir, 'data')
  const output: string[] = []
  const logs = () => output.join('')
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    const reader = stream.getReader()
    for (let part = await reader.read(); !part.done; part = await reader.read()) output.push(decoder.decode(part.value, { stream: true }))
  }
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, HOST: '127.0.0.1', ...options.env }

  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const proc = Bun.spawn([binary, '--port', String(port), '--data-dir', dataDir], {
      cwd: dir, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe',
    })
    const drained = Promise.all([drain(proc.stdout), drain(proc.stderr)])
    running.add(proc)
    writeFileSync(join(dir, 'gateway.pid'), String(proc.pid))
    let exited = false
    void proc.exited.then(() => (exited = true))
    const deadline = Date.now() + 45_000 // a hang detector: a loaded machine took over 15 s to start the binary
    while (!exited && Date.now() < deadline) {
      try {
        const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(1000) })
        if (response.status === 200) {
          const stop = async () => {
            if (running.delete(proc)) {
              proc.kill('SIGTERM')
              const timer = setTimeout(() => proc.kill('SIGKILL'), 5000)
              await proc.exited
              clearTimeout(timer)
              await drained
            }
            rmSync(dir, { recursive: true, force: true })
          }
          return { url, port, pid: proc.pid, dataDir, logs, stop }
        }
      } catch {
        // not listening yet
      }
      await Bun.sleep(50)
    }
    running.delete(proc)
    proc.kill('SIGKILL')
    await proc.exited
    await drained
    const log = logs()
    // the port was taken between freePort() and the bind: try another
    if (exited && attempt < 3 && /EADDRINUSE|address already in use|port .* in use/i.test(log)) {
      output.length = 0
      continue
    }
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`e2e: the gateway did not answer HEAD / with 200 ${exited ? `(exited with ${proc.exitCode})` : 'within 45 s'}\n${log}`)
  }
}

// ---------------------------------------------------------------------------------------------------------
// the browser

/** Launch options: `--no-sandbox` because the tests run as root (Chromium refuses its sandbox to root). */
const launch = () => chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] })

let shared: Promise<Browser> | undefined

/**
 * The worker's browser: launched on first use and shared by every file the process runs (under
 * `--parallel --no-isolate` a worker keeps its modules, so one launch serves all its browser files). A file
 * never closes it; each test opens its own context (`openPage`), which keeps cookies and storage apart.
 * Chromium ends with the test process: it exits when its DevTools pipe to this process closes. A browser that
 * crashed or was closed is replaced.
 */
export function sharedBrowser(): Promise<Browser> {
  const previous = shared
  shared = (async () => {
    const browser = await previous?.catch(() => undefined)
    return browser?.isConnected() ? browser : launch()
  })()
  return shared
}

const VIEWPORTS = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const
export type ViewportName = keyof typeof VIEWPORTS
export type ColorScheme = 'light' | 'dark'

export function setViewport(page: Page, viewport: ViewportName): Promise<void> {
  return page.setViewportSize(VIEWPORTS[viewport])
}

export function setColorScheme(page: Page, colorScheme: ColorScheme): Promise<void> {
  return page.emulateMedia({ colorScheme })
}

/** A console error the page is expected to log: the browser's "Failed to load resource" line for `url` with `status`. */
interface ExpectedResourceError {
  /** the resource's URL: a substring (e.g. '/api/user/self') or a pattern matched against the full URL */
  url: string | RegExp
  status: number
}

export interface PageWatch {
  /** console errors (`console.error`, failed resource loads …), as "text (url)" */
  readonly consoleErrors: string[]
  /** uncaught exceptions and unhandled rejections in the page */
  readonly pageErrors: string[]
  /** requests to a host other than loopback: recorded and aborted */
  readonly externalRequests: string[]
  /** allow more "Failed to load resource: 4xx" console lines from now on */
  expectResourceErrors(...expected: ExpectedResourceError[]): void
  /** forget what was recorded so far */
  reset(): void
  /** throw, listing everything recorded, unless nothing was */
  assertClean(): void
}

const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i

/** True for http(s)/ws(s) URLs whose host is not loopback (data:, blob:, about: never leave the machine). */
export function isExternal(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (!/^(https?|wss?):$/.test(parsed.protocol)) return false
  return !LOOPBACK_HOST.test(parsed.hostname)
}

/**
 * Record every console error, page error and non-loopback request of `page`, and abort the latter so a test
 * never reaches the network. `expected` lists the 4xx answers the page shows as a message (the browser still
 * logs "Failed to load resource: the server responded with a status of 401" for them); those lines are not
 * counted.
 */
async function watchPage(page: Page, expected: ExpectedResourceError[] = []): Promise<PageWatch> {
  const allowed = [...expected]
  const consoleErrors: string[] = []
  const pageErrors: string[] = []
  const externalRequests: string[] = []

  const isExpected = (text: string, url: string) => {
    const status = /status of (\d{3})/.exec(text)?.[1]
    if (!status) return false
    return allowed.some((e) => e.status === Number(status) && (typeof e.url === 'string' ? url.includes(e.url) : e.url.test(url)))
  }

  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const url = message.location().url
    if (isExpected(message.text(), url)) return
    consoleErrors.push(url ? `${message.text()} (${url})` : message.text())
  })
  page.on('pageerror', (error) => pageErrors.push(error.stack ?? String(error)))
  page.on('crash', () => pageErrors.push('the page crashed'))
  await page.route(
    (url) => isExternal(url.href),
    async (route) => {
      const request = route.request()
      externalRequests.push(`${request.method()} ${request.url()}`)
      await route.abort('blockedbyclient')
    },
  )
  // WebSockets bypass page.route
  await page.routeWebSocket(
    (url) => isExternal(url.href),
    (ws) => {
      externalRequests.push(`WebSocket ${ws.url()}`)
      void ws.close()
    },
  )

  return {
    consoleErrors,
    pageErrors,
    externalRequests,
    expectResourceErrors: (...more) => void allowed.push(...more),
    reset() {
      consoleErrors.length = 0
      pageErrors.length = 0
      externalRequests.length = 0
    },
    assertClean() {
      const sections = [
        ['console errors', consoleErrors],
        ['page errors', pageErrors],
        ['requests off the machine (blocked)', externalRequests],
      ] as const
      const found = sections.filter(([, list]) => list.length > 0)
      if (found.length === 0) return
      throw new Error(`page was not clean:\n${found.map(([name, list]) => `${name}:\n${list.map((l) => `  - ${l}`).join('\n')}`).join('\n')}`)
    },
  }
}

export interface OpenPageOptions {
  viewport?: ViewportName
  colorScheme?: ColorScheme
  /** navigator.language(s), which picks the console's language (default en-US) */
  locale?: string
  expected?: ExpectedResourceError[]
}

/**
 * What the tests' browsers accept: gzip, not Chromium's `br`. A fresh gateway brotli-compresses each console file
 * at quality 11 on its first request (about 2 s of CPU for the first page), and the suite starts dozens of
 * gateways that a browser visits once; gzip is the same path through the browser's decoder for a hundredth of
 * that. tests/modules/console/serve.test.ts checks the brotli answers byte for byte.
 */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate' }

/** A fresh context (own cookies) with one watched page; close `context` when done. */
export async function openPage(browser: Browser, options: OpenPageOptions = {}): Promise<{ context: BrowserContext; page: Page; watch: PageWatch }> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[options.viewport ?? 'desktop'],
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-US',
    extraHTTPHeaders: BROWSER_HEADERS,
  })
  // Playwright's 30 s default per action is a hang detector that a loaded two-core machine missed on a first,
  // cold page load: the test's own timeout (E2E_TIMEOUT) bounds it instead
  context.setDefaultTimeout(E2E_TIMEOUT)
  const page = await context.newPage()
  const watch = await watchPage(page, options.expected)
  return { context, page, watch }
}

/**
 * Whether `screenshot()` writes its PNGs: when a person wants to look at them (`SCREENSHOTS=1`, or a
 * `SCREENSHOTS_DIR`). A full-page PNG costs about as much CPU as loading the page, and the suite asserts on the
 * page, never on the picture, so `bun run test` takes none.
 */
const SCREENSHOTS = process.env.SCREENSHOTS === '1' || Boolean(process.env.SCREENSHOTS_DIR)

/**
 * A full-page PNG at tests/e2e/artifacts/<name>.png (gitignored) or in SCREENSHOTS_DIR, when SCREENSHOTS asks
 * for them (or `always`, for the test of this function); returns its path, or undefined when none was taken.
 */
export async function screenshot(page: Page, name: string, options: { always?: boolean } = {}): Promise<string | undefined> {
  if (!SCREENSHOTS && !options.always) return undefined
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  const path = join(ARTIFACTS_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

// ---------------------------------------------------------------------------------------------------------
// state through the API (for tests whose subject is not setup or login)

export interface Credentials {
  username: string
  password: string
}

interface ApiResult {
  status: number
  /** the parsed JSON body (`{success, message, data}` for /api), or the text */
  body: any
}

export interface ApiClient {
  call(method: string, path: string, body?: unknown): Promise<ApiResult>
}

async function send(url: string, method: string, body: unknown, headers: Record<string, string>): Promise<{ response: Response; result: ApiResult }> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { response, result: { status: response.status, body: parsed } }
}

/** Create the root user through `POST /api/setup` (an instance started without ROOT_PASSWORD). */
export async function setupRoot(gw: Gateway, root: Credentials): Promise<void> {
  const { result } = await send(gw.url + '/api/setup', 'POST', { ...root, confirmPassword: root.password }, {})
  if (result.status !== 200 || result.body?.success !== true) throw new Error(`e2e: setup failed: ${result.status} ${JSON.stringify(result.body)}`)
}

/** Log in through the API and return a client carrying the session cookie. */
export async function apiLogin(gw: Gateway, user: Credentials): Promise<ApiClient> {
  const { response, result } = await send(gw.url + '/api/user/login', 'POST', user, {})
  if (result.status !== 200 || result.body?.success !== true) throw new Error(`e2e: login failed: ${result.status} ${JSON.stringify(result.body)}`)
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  return { call: async (method, path, body) => (await send(gw.url + path, method, body, { cookie })).result }
}

/** Log a browser context in through the API: its pages then open the console as `user` without the login form. */
export async function loginContext(context: BrowserContext, gw: Gateway, user: Credentials): Promise<void> {
  const response = await context.request.post(gw.url + '/api/user/login', { data: user })
  if (!response.ok()) throw new Error(`e2e: login failed: ${response.status()} ${await response.text()}`)
}

// ---------------------------------------------------------------------------------------------------------
// a fake OpenAI-compatible upstream

export const UPSTREAM_KEY = 'sk-e2e-upstream-key-0123456789'

/**
 * The shared fake upstream (tests/helpers/fake-upstreams) on 127.0.0.1, accepting UPSTREAM_KEY: it answers
 * POST /v1/chat/completions (streamed or not), /v1/responses, /v1/messages and GET /v1/models. Script replies
 * with `setBehavior({ text, usage, error, delayMs … })`; `requests` records what the gateway sent.
 */
export function startFakeOpenAI(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream({ keys: [UPSTREAM_KEY], models: ['gpt-4o-mini', 'gpt-4o'], ...options })
}

/** The body of `POST /api/channel/` for a channel of type 1 (OpenAI) or 8 (custom OpenAI-compatible) on `upstream`. */
export function openAIChannel(
  upstream: FakeUpstream,
  fields: { type?: 1 | 8; name?: string; models?: string[]; group?: string } = {},
): Record<string, unknown> {
  const type = fields.type ?? 1
  return {
    type,
    name: fields.name ?? (type === 1 ? 'fake-openai' : 'fake-custom'),
    key: UPSTREAM_KEY,
    base_url: upstream.url,
    models: (fields.models ?? ['gpt-4o-mini', 'gpt-4o']).join(','),
    group: fields.group ?? 'default',
  }
}
