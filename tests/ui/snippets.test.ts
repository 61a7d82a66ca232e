/**
 * Every setup snippet the new-key dialog shows must work as written: a real gateway, a channel to a fake
 * upstream, a token made through the API, then each snippet run (curl by bash, the SDK snippets by `bun run`,
 * the CLI configs through the SDK the CLI uses, configured only from what the snippet sets).
 */
import Anthropic from '@anthropic-ai/sdk'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI from 'openai'
import { buildSnippets, CODEX_KEY_ENV, FALLBACK_MODEL, KEY_PLACEHOLDER, PROVIDER_ID, SETTINGS, SHELL, snippetBaseUrl, snippetModel, type Snippet, type SnippetId } from '../../src/ui/lib/snippets'
import { login } from '../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'

const REPO = join(import.meta.dir, '..', '..')
const ANSWER = 'Hi from the snippet test.'
const MODEL = 'snippet-model-1'

let env: RelayEnv
let key: string
let model: string
let snippets: Snippet[]
/** scripts run from inside node_modules so `import "openai"` resolves to the devDependencies; ignored by git */
let work: string

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, name: 'snippets', models: `${MODEL},snippet-model-2` })
  env.upstream.setBehavior({ text: ANSWER })
  const cookie = await login(env.app, 'alice')
  const created = await call(env.app, 'POST', '/api/token/', { name: 'ci', unlimited_quota: true, expired_time: -1, model_limits_enabled: true, model_limits: MODEL }, { cookie })
  expect(created.status).toBe(200)
  key = created.body.data.key
  expect(key).toStartWith('sk-')
  const models = await call(env.app, 'GET', '/api/user/models', undefined, { cookie })
  model = snippetModel(created.body.data, models.body.data)
  expect(model).toBe(MODEL)
  snippets = buildSnippets({ baseUrl: `${env.app.url}/`, key, model })
  mkdirSync(join(REPO, 'node_modules', '.cache'), { recursive: true })
  work = mkdtempSync(join(REPO, 'node_modules', '.cache', 'snippet-tests-'))
  // a hang detector, not a speed bound: this phase isolates every file, so this one loads the whole app first, and a
  // loaded two-core machine took more than the suite's 20 s for it
}, 60_000)
afterAll(async () => {
  rmSync(work, { recursive: true, force: true })
  await env.stop()
})

const snippet = (id: SnippetId) => snippets.find((s) => s.id === id)!
const block = (id: SnippetId, title: string) => {
  const found = snippet(id).blocks.find((b) => b.title === title)
  if (!found) throw new Error(`${id} has no block "${title}"`)
  return found.code
}

/** The environment a snippet runs in: no proxy or SDK settings of the machine leak in. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(ANTHROPIC|OPENAI|GEMINI|GOOGLE)_|proxy$/i.test(name)) continue
    out[name] = value
  }
  return { ...out, ...extra }
}

async function run(argv: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  const child = Bun.spawn(argv, { cwd: options.cwd ?? work, env: options.env ?? cleanEnv(), stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}\n${stdout}\n${stderr}`)
  return stdout
}

function writeScript(name: string, code: string): string {
  const path = join(work, name)
  writeFileSync(path, code)
  return path
}

/** The requests the upstream got since `from`, each with the model the gateway sent on. */
const upstreamModels = (from: number) => env.upstream.requests.slice(from).map((r) => r.model)

describe('each snippet runs against the gateway', () => {
  test('curl: plain bash, no variables, no jq', async () => {
    const code = block('curl', SHELL)
    expect(code).not.toContain('$')
    expect(code).not.toMatch(/\|\s*jq\b/) // no pipe into jq (the random key may hold the letters)
    const from = env.upstream.requests.length
    const body = JSON.parse(await run(['bash', '-c', code]))
    expect(body.choices[0].message.content).toBe(ANSWER)
    expect(upstreamModels(from)).toEqual([MODEL])
  })

  for (const id of ['openai-sdk', 'anthropic-sdk', 'genai-sdk'] as const) {
    test(`${id}: the TypeScript snippet, run by bun`, async () => {
      const from = env.upstream.requests.length
      const out = await run(['bun', 'run', writeScript(`${id}.ts`, block(id, 'TypeScript'))])
      expect(out.trim()).toBe(ANSWER)
      expect(upstreamModels(from)).toEqual([MODEL])
    })
  }

  test('SDK Python snippets parse and carry the same address, key and model', async () => {
    for (const id of ['openai-sdk', 'anthropic-sdk', 'genai-sdk'] as const) {
      const python = block(id, 'Python')
      const child = Bun.spawn(['python3', '-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { stdin: new Blob([python]), stderr: 'pipe' })
      expect(await child.exited).toBe(0)
      const typescript = block(id, 'TypeScript')
      const address = id === 'openai-sdk' ? `"${env.app.url}/v1"` : `"${env.app.url}"`
      for (const text of [address, `"${key}"`, `"${MODEL}"`]) {
        expect(python).toContain(text)
        expect(typescript).toContain(text)
      }
    }
  })

  /** A stand-in for a CLI on PATH: running the snippet verbatim ends by starting it, and it runs `check`. */
  function shim(name: string, check: string): string {
    const bin = join(work, `bin-${name}`)
    mkdirSync(bin, { recursive: true })
    const script = writeScript(`${name}-check.ts`, check)
    writeFileSync(join(bin, name), `#!/bin/sh\nexec bun run ${JSON.stringify(script)}\n`)
    chmodSync(join(bin, name), 0o755)
    return bin
  }

  test('Claude Code: the Anthropic SDK configured only from the exported variables (Bearer, root address)', async () => {
    const bin = shim(
      'claude',
      `import Anthropic from "@anthropic-ai/sdk"
       const client = new Anthropic({ apiKey: null }) // base URL and Bearer token from ANTHROPIC_BASE_URL / ANTHROPIC_AUTH_TOKEN
       for (const model of [process.env.ANTHROPIC_MODEL, process.env.ANTHROPIC_DEFAULT_HAIKU_MODEL]) {
         const message = await client.messages.create({ model, max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
         for (const block of message.content) if (block.type === "text") console.log(block.text)
       }`,
    )
    const from = env.upstream.requests.length
    const out = await run(['bash', '-c', block('claude-code', SHELL)], { env: cleanEnv({ PATH: `${bin}:${process.env.PATH}` }) })
    expect(out.trim().split('\n')).toEqual([ANSWER, ANSWER])
    expect(upstreamModels(from)).toEqual([MODEL, MODEL])
  })

  test('Gemini CLI: API key sign-in chosen in ~/.gemini/settings.json, the GenAI SDK configured only from the exported variables', async () => {
    const home = join(work, 'home-gemini')
    mkdirSync(join(home, '.gemini'), { recursive: true })
    writeFileSync(join(home, '.gemini', 'settings.json'), block('gemini-cli', '~/.gemini/settings.json'))
    const bin = shim(
      'gemini',
      `import { GoogleGenAI } from "@google/genai"
       import { readFileSync } from "node:fs"
       const settings = JSON.parse(readFileSync(process.env.HOME + "/.gemini/settings.json", "utf8"))
       if (settings.security.auth.selectedType !== "gemini-api-key") throw new Error("not the API key sign-in")
       const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY }) // the SDK reads GOOGLE_GEMINI_BASE_URL itself
       const response = await ai.models.generateContent({ model: process.env.GEMINI_MODEL, contents: "hi" })
       console.log(response.text)`,
    )
    const from = env.upstream.requests.length
    const out = await run(['bash', '-c', block('gemini-cli', SHELL)], { env: cleanEnv({ HOME: home, PATH: `${bin}:${process.env.PATH}` }) })
    expect(out.trim()).toBe(ANSWER)
    expect(upstreamModels(from)).toEqual([MODEL])
  })

  test('Codex CLI: config.toml in ~/.codex, the key from env_key, the Responses API at base_url', async () => {
    const home = join(work, 'home')
    const toml = block('codex', '~/.codex/config.toml')
    mkdirSync(join(home, '.codex'), { recursive: true })
    writeFileSync(join(home, '.codex', 'config.toml'), toml)
    const config = Bun.TOML.parse(toml) as any
    expect(config.model_provider).toBe(PROVIDER_ID)
    expect(config.model_providers[PROVIDER_ID]).toMatchObject({ env_key: CODEX_KEY_ENV, wire_api: 'responses' })
    const bin = shim(
      'codex',
      `import OpenAI from "openai"
       import { readFileSync } from "node:fs"
       const config = Bun.TOML.parse(readFileSync(process.env.HOME + "/.codex/config.toml", "utf8"))
       const provider = config.model_providers[config.model_provider]
       const client = new OpenAI({ baseURL: provider.base_url, apiKey: process.env[provider.env_key] })
       const response = await client.responses.create({ model: config.model, input: "hi" })
       console.log(response.output_text)`,
    )
    const from = env.upstream.requests.length
    const out = await run(['bash', '-c', block('codex', SHELL)], { env: cleanEnv({ HOME: home, PATH: `${bin}:${process.env.PATH}` }) })
    expect(out.trim()).toBe(ANSWER)
    expect(upstreamModels(from)).toEqual([MODEL])
  })

  test('opencode: opencode.json names a provider whose options reach chat completions', async () => {
    const config = JSON.parse(block('opencode', 'opencode.json'))
    expect(config.$schema).toBe('https://opencode.ai/config.json')
    const [providerId, modelId] = [config.model.slice(0, config.model.indexOf('/')), config.model.slice(config.model.indexOf('/') + 1)]
    const provider = config.provider[providerId]
    expect(provider.npm).toBe('@ai-sdk/openai-compatible')
    expect(Object.keys(provider.models)).toEqual([modelId])
    const client = new OpenAI({ baseURL: provider.options.baseURL, apiKey: provider.options.apiKey, maxRetries: 0 })
    const response = await client.chat.completions.create({ model: modelId, messages: [{ role: 'user', content: 'hi' }] })
    expect(response.choices[0]!.message.content).toBe(ANSWER)
  })

  test('OpenAI-compatible tools: the three settings reach chat completions and the model list', async () => {
    const settings = Object.fromEntries(block('openai-compatible', SETTINGS).split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]))
    const client = new OpenAI({ baseURL: settings['Base URL'], apiKey: settings['API key'], maxRetries: 0 })
    const response = await client.chat.completions.create({ model: settings['Model']!, messages: [{ role: 'user', content: 'hi' }] })
    expect(response.choices[0]!.message.content).toBe(ANSWER)
    const listed = await client.models.list()
    expect(listed.data.map((m) => m.id)).toEqual([MODEL])
  })

  test('a wrong key is refused, so the runs above really used the snippet key', async () => {
    const client = new Anthropic({ baseURL: env.app.url, authToken: 'sk-not-a-key', apiKey: null, maxRetries: 0 })
    const error = await client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError)
  })
})

/**
 * The real CLIs, when a folder holding their binaries is given (not devDependencies: large, and Claude Code's and
 * Codex's native binaries come per platform), e.g.
 *   npm install --prefix /tmp/clis @anthropic-ai/claude-code @openai/codex @google/gemini-cli
 *   TOLLGATE_CLI_BIN=/tmp/clis/node_modules/.bin bun test tests/ui/snippets.test.ts
 * Each snippet runs as written but for its last line, which starts the CLI headless instead of interactive.
 */
const CLI_BIN = process.env.TOLLGATE_CLI_BIN
describe.skipIf(!CLI_BIN)('the real CLIs, configured by the snippets', () => {
  const headless = { 'claude-code': 'claude -p "Say hello"', codex: 'codex exec --skip-git-repo-check "Say hello"', 'gemini-cli': 'gemini -p "Say hello"' } as const
  for (const id of Object.keys(headless) as (keyof typeof headless)[]) {
    test(id, async () => {
      const home = mkdtempSync(join(work, `home-${id}-`))
      for (const b of snippet(id).blocks.filter((b) => b.title.startsWith('~/'))) {
        const path = join(home, b.title.slice(2))
        mkdirSync(join(path, '..'), { recursive: true })
        writeFileSync(path, b.code)
      }
      const shell = block(id, SHELL).replace(/\n[a-z]+$/, `\n${headless[id]}`)
      const from = env.upstream.requests.length
      const out = await run(['bash', '-c', shell], {
        cwd: home,
        env: cleanEnv({ HOME: home, PATH: `${CLI_BIN}:${process.env.PATH}`, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
      })
      expect(out).toContain(ANSWER)
      expect(upstreamModels(from).length).toBeGreaterThan(0)
      expect(new Set(upstreamModels(from))).toEqual(new Set([MODEL]))
    }, 180_000)
  }
})

describe('buildSnippets', () => {
  test('the nine tabs in order, every one filled with the address, the key and the model', () => {
    const built = buildSnippets({ baseUrl: 'https://llm.example.com/', key: 'sk-abc', model: 'm-1' })
    expect(built.map((s) => s.label)).toEqual([
      'Claude Code', 'Codex CLI', 'opencode', 'Gemini CLI', 'OpenAI-compatible tools', 'OpenAI SDK', 'Anthropic SDK', 'Google GenAI SDK', 'curl',
    ])
    for (const s of built) {
      const all = s.blocks.map((b) => b.code).join('\n')
      expect(all).toContain('https://llm.example.com')
      expect(all).not.toContain('https://llm.example.com/v1/v1')
      expect(all).not.toContain('.com//')
      expect(all).toContain('m-1')
      if (s.id !== 'codex') expect(all).toContain('sk-abc')
    }
    expect(built.find((s) => s.id === 'codex')!.blocks[1]!.code).toContain('sk-abc')
    for (const id of ['openai-sdk', 'anthropic-sdk', 'genai-sdk']) expect(built.find((s) => s.id === id)!.blocks.map((b) => b.title)).toEqual(['Python', 'TypeScript'])
  })

  test('Anthropic and Gemini clients get the root, OpenAI clients /v1', () => {
    const built = buildSnippets({ baseUrl: 'https://llm.example.com', key: 'sk-abc', model: 'm-1' })
    const code = (id: SnippetId, i = 0) => built.find((s) => s.id === id)!.blocks[i]!.code
    expect(code('claude-code')).toContain('export ANTHROPIC_BASE_URL="https://llm.example.com"\n')
    expect(code('claude-code')).toContain('export ANTHROPIC_AUTH_TOKEN="sk-abc"')
    expect(code('gemini-cli', 1)).toContain('export GOOGLE_GEMINI_BASE_URL="https://llm.example.com"\n')
    expect(code('codex')).toContain('base_url = "https://llm.example.com/v1"')
    expect(code('anthropic-sdk')).toContain('base_url="https://llm.example.com"')
    expect(code('genai-sdk', 1)).toContain('httpOptions: { baseUrl: "https://llm.example.com" }')
    expect(code('openai-sdk', 1)).toContain('baseURL: "https://llm.example.com/v1"')
    expect(code('curl')).toStartWith('curl "https://llm.example.com/v1/chat/completions"')
  })

  test('odd characters stay inert in every language', () => {
    const built = buildSnippets({ baseUrl: 'http://h', key: 'sk-"$`\'\\x', model: "m'o\"d$l" })
    const curl = built.find((s) => s.id === 'curl')!.blocks[0]!.code
    const toml = Bun.TOML.parse(built.find((s) => s.id === 'codex')!.blocks[0]!.code) as any
    expect(toml.model).toBe("m'o\"d$l")
    expect(JSON.parse(built.find((s) => s.id === 'opencode')!.blocks[0]!.code).provider.tollgate.options.apiKey).toBe('sk-"$`\'\\x')
    // bash sees the same words the snippet means: echo them instead of running curl
    const words = Bun.spawnSync(['bash', '-c', curl.replace(/^curl /, 'printf "%s\\n" ')]).stdout.toString().split('\n')
    expect(words[2]).toBe('Authorization: Bearer sk-"$`\'\\x')
    expect(JSON.parse(words[6]!).model).toBe("m'o\"d$l")
  })

  test('the address: ServerAddress when root set one, else the browser origin', () => {
    expect(snippetBaseUrl('https://llm.example.com/', 'http://127.0.0.1:3000')).toBe('https://llm.example.com')
    expect(snippetBaseUrl('', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000')
    expect(snippetBaseUrl(undefined, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000')
  })

  test('the model: of the token limits, else of the models the user may call, else a fallback', () => {
    expect(snippetModel({ model_limits_enabled: true, model_limits: ' a, b' }, ['x'])).toBe('a')
    expect(snippetModel({ model_limits_enabled: false, model_limits: 'a' }, ['x', 'y'])).toBe('x')
    expect(snippetModel({ model_limits_enabled: true, model_limits: '' }, [])).toBe(FALLBACK_MODEL)
    expect(snippetModel({ model_limits_enabled: false, model_limits: '' }, undefined)).toBe(FALLBACK_MODEL)
  })

  test('the model can chat: an embedding or completion-only model that sorts first is passed over', () => {
    const any = { model_limits_enabled: false, model_limits: '' }
    expect(snippetModel(any, ['babbage-002', 'gpt-4o-mini', 'text-embedding-3-small'])).toBe('gpt-4o-mini')
    expect(snippetModel({ model_limits_enabled: true, model_limits: 'acme-embed,acme-chat' }, ['x'])).toBe('acme-chat')
    const curl = buildSnippets({ baseUrl: 'http://localhost:3000', key: KEY_PLACEHOLDER, model: snippetModel(any, ['acme-embed', 'acme-chat']) }).find((s) => s.id === 'curl')!
    expect(curl.blocks[0]!.code).toContain('"model":"acme-chat"')
  })

  test('the model has a price: a chat model without one is passed over, the remembered one kept while valid', () => {
    const any = { model_limits_enabled: false, model_limits: '' }
    const prices = { priced: new Set(['gpt-4o']), selfUse: false }
    expect(snippetModel(any, ['deepseek-chat', 'gpt-4o'], { prices })).toBe('gpt-4o')
    expect(snippetModel(any, ['deepseek-chat', 'gpt-4o', 'gpt-4o-mini'], { prices: { priced: new Set(['gpt-4o', 'gpt-4o-mini']), selfUse: false }, remembered: 'gpt-4o-mini' })).toBe('gpt-4o-mini')
    expect(snippetModel(any, ['deepseek-chat', 'gpt-4o'], { prices, remembered: 'deepseek-chat' })).toBe('gpt-4o')
  })
})

describe('README', () => {
  test('"Connect your tools" shows exactly what buildSnippets makes for localhost:3000 and a placeholder key', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    const start = readme.indexOf('\n## Connect your tools\n')
    expect(start).toBeGreaterThan(readme.indexOf('\n## Quick start\n'))
    const end = readme.indexOf('\n## ', start + 1)
    const section = readme.slice(start, end)
    const expected = buildSnippets({ baseUrl: 'http://localhost:3000', key: KEY_PLACEHOLDER, model: FALLBACK_MODEL })
    const parts = section.split('\n### ').slice(1)
    expect(parts.map((part) => part.slice(0, part.indexOf('\n')))).toEqual(expected.map((s) => s.label))
    parts.forEach((part, i) => {
      const fences = [...part.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map((m) => ({ language: m[1], code: m[2] }))
      expect(fences).toEqual(expected[i]!.blocks.map((b) => ({ language: b.language, code: b.code })))
    })
  })
})
