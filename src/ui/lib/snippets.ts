/**
 * Ready-to-paste client setup for one key: pure text, shared by the new-key dialog, the README's "Connect your
 * tools" section (a test keeps the two equal) and the test that runs every snippet against a real gateway.
 *
 * Addresses: Anthropic and Gemini clients take the instance's root (they add `/v1/messages`,
 * `/v1beta/models/…` themselves); OpenAI clients take `<root>/v1`.
 */

import { chooseModel, type ModelPrices } from './model-choice'

type SnippetLanguage = 'bash' | 'toml' | 'json' | 'python' | 'typescript' | 'text'

export interface SnippetBlock {
  /** what the block is: a file to write, "Shell", "Settings", a language */
  title: string
  language: SnippetLanguage
  code: string
}

export interface Snippet {
  id: SnippetId
  label: string
  blocks: SnippetBlock[]
}

export type SnippetId =
  | 'claude-code'
  | 'codex'
  | 'opencode'
  | 'gemini-cli'
  | 'openai-compatible'
  | 'openai-sdk'
  | 'anthropic-sdk'
  | 'genai-sdk'
  | 'curl'

export interface SnippetInput {
  /** the instance's address, e.g. `https://llm.example.com` (a trailing slash is dropped) */
  baseUrl: string
  /** the full `sk-…` key */
  key: string
  /** a model the key may call */
  model: string
}

/** Block titles that are words (the console translates them); others are file paths or language names. */
export const SHELL = 'Shell'
export const SETTINGS = 'Settings'

/** The provider id written into Codex and opencode configs, and the env var Codex reads the key from. */
export const PROVIDER_ID = 'tollgate'
export const CODEX_KEY_ENV = 'TOLLGATE_API_KEY'

/** Stands for the key where it is no longer known (the README, a token's setup after its creation). */
export const KEY_PLACEHOLDER = 'sk-…your key…'

/** The model shown when nothing better is known. */
export const FALLBACK_MODEL = 'gpt-4o-mini'

const PROMPT = 'Say hello in one short sentence.'

/** A string as a double-quoted literal: valid JSON, TOML, Python and TypeScript alike. */
const q = (text: string) => JSON.stringify(text)

/** A word for bash, double-quoted with `"`, `\`, `$` and backquotes escaped. */
const sh = (text: string) => `"${text.replace(/(["\\$`])/g, '\\$1')}"`

/** Text for inside a single-quoted bash word. */
const single = (text: string) => text.replace(/'/g, `'\\''`)

export function buildSnippets(input: SnippetInput): Snippet[] {
  const root = input.baseUrl.replace(/\/+$/, '')
  const v1 = `${root}/v1`
  const { key, model } = input
  return [
    {
      id: 'claude-code',
      label: 'Claude Code',
      blocks: [
        {
          title: SHELL,
          language: 'bash',
          code: [
            `export ANTHROPIC_BASE_URL=${sh(root)}`,
            `export ANTHROPIC_AUTH_TOKEN=${sh(key)}`,
            `export ANTHROPIC_MODEL=${sh(model)}`,
            `export ANTHROPIC_DEFAULT_HAIKU_MODEL=${sh(model)}`,
            'claude',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'codex',
      label: 'Codex CLI',
      blocks: [
        {
          title: '~/.codex/config.toml',
          language: 'toml',
          code: [
            `model = ${q(model)}`,
            `model_provider = ${q(PROVIDER_ID)}`,
            '',
            `[model_providers.${PROVIDER_ID}]`,
            'name = "Tollgate"',
            `base_url = ${q(v1)}`,
            `env_key = ${q(CODEX_KEY_ENV)}`,
            'wire_api = "responses"',
          ].join('\n'),
        },
        { title: SHELL, language: 'bash', code: `export ${CODEX_KEY_ENV}=${sh(key)}\ncodex` },
      ],
    },
    {
      id: 'opencode',
      label: 'opencode',
      blocks: [
        {
          title: 'opencode.json',
          language: 'json',
          code: JSON.stringify(
            {
              $schema: 'https://opencode.ai/config.json',
              provider: {
                [PROVIDER_ID]: {
                  npm: '@ai-sdk/openai-compatible',
                  name: 'Tollgate',
                  options: { baseURL: v1, apiKey: key },
                  models: { [model]: {} },
                },
              },
              model: `${PROVIDER_ID}/${model}`,
            },
            null,
            2,
          ),
        },
      ],
    },
    {
      id: 'gemini-cli',
      label: 'Gemini CLI',
      blocks: [
        // with only the variables, Gemini CLI 0.61 takes GOOGLE_GEMINI_BASE_URL for a "gateway" sign-in it then
        // refuses ("Invalid auth method selected"); choosing the API key sign-in here makes it use both
        { title: '~/.gemini/settings.json', language: 'json', code: JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2) },
        {
          title: SHELL,
          language: 'bash',
          code: [`export GOOGLE_GEMINI_BASE_URL=${sh(root)}`, `export GEMINI_API_KEY=${sh(key)}`, `export GEMINI_MODEL=${sh(model)}`, 'gemini'].join('\n'),
        },
      ],
    },
    {
      id: 'openai-compatible',
      label: 'OpenAI-compatible tools',
      blocks: [{ title: SETTINGS, language: 'text', code: [`Base URL: ${v1}`, `API key:  ${key}`, `Model:    ${model}`].join('\n') }],
    },
    {
      id: 'openai-sdk',
      label: 'OpenAI SDK',
      blocks: [
        {
          title: 'Python',
          language: 'python',
          code: [
            'from openai import OpenAI',
            '',
            `client = OpenAI(base_url=${q(v1)}, api_key=${q(key)})`,
            'response = client.chat.completions.create(',
            `    model=${q(model)},`,
            `    messages=[{"role": "user", "content": ${q(PROMPT)}}],`,
            ')',
            'print(response.choices[0].message.content)',
          ].join('\n'),
        },
        {
          title: 'TypeScript',
          language: 'typescript',
          code: [
            'import OpenAI from "openai"',
            '',
            `const client = new OpenAI({ baseURL: ${q(v1)}, apiKey: ${q(key)} })`,
            'const response = await client.chat.completions.create({',
            `  model: ${q(model)},`,
            `  messages: [{ role: "user", content: ${q(PROMPT)} }],`,
            '})',
            'console.log(response.choices[0].message.content)',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'anthropic-sdk',
      label: 'Anthropic SDK',
      blocks: [
        {
          title: 'Python',
          language: 'python',
          code: [
            'import anthropic',
            '',
            `client = anthropic.Anthropic(base_url=${q(root)}, api_key=${q(key)})`,
            'message = client.messages.create(',
            `    model=${q(model)},`,
            '    max_tokens=1024,',
            `    messages=[{"role": "user", "content": ${q(PROMPT)}}],`,
            ')',
            'print(message.content[0].text)',
          ].join('\n'),
        },
        {
          title: 'TypeScript',
          language: 'typescript',
          code: [
            'import Anthropic from "@anthropic-ai/sdk"',
            '',
            `const client = new Anthropic({ baseURL: ${q(root)}, apiKey: ${q(key)} })`,
            'const message = await client.messages.create({',
            `  model: ${q(model)},`,
            '  max_tokens: 1024,',
            `  messages: [{ role: "user", content: ${q(PROMPT)} }],`,
            '})',
            'for (const block of message.content) if (block.type === "text") console.log(block.text)',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'genai-sdk',
      label: 'Google GenAI SDK',
      blocks: [
        {
          title: 'Python',
          language: 'python',
          code: [
            'from google import genai',
            '',
            `client = genai.Client(api_key=${q(key)}, http_options={"base_url": ${q(root)}})`,
            `response = client.models.generate_content(model=${q(model)}, contents=${q(PROMPT)})`,
            'print(response.text)',
          ].join('\n'),
        },
        {
          title: 'TypeScript',
          language: 'typescript',
          code: [
            'import { GoogleGenAI } from "@google/genai"',
            '',
            `const ai = new GoogleGenAI({ apiKey: ${q(key)}, httpOptions: { baseUrl: ${q(root)} } })`,
            `const response = await ai.models.generateContent({ model: ${q(model)}, contents: ${q(PROMPT)} })`,
            'console.log(response.text)',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'curl',
      label: 'curl',
      blocks: [
        {
          title: SHELL,
          language: 'bash',
          code: [
            `curl ${sh(`${v1}/chat/completions`)} \\`,
            `  -H ${sh(`Authorization: Bearer ${key}`)} \\`,
            '  -H "Content-Type: application/json" \\',
            `  -d '${single(JSON.stringify({ model, messages: [{ role: 'user', content: PROMPT }] }))}'`,
          ].join('\n'),
        },
      ],
    },
  ]
}

/** The address clients should use: the `ServerAddress` option when root set one, else where the console runs. */
export function snippetBaseUrl(serverAddress: string | undefined, origin: string): string {
  return (serverAddress?.trim() || origin).replace(/\/+$/, '')
}

/** The models the token may call: its model limits when it has them, else those the user's group can call. */
export function tokenModels(token: { model_limits_enabled: boolean; model_limits: string }, userModels: readonly string[] | undefined): string[] {
  const limits = token.model_limits_enabled ? token.model_limits.split(',').map((model) => model.trim()).filter(Boolean) : []
  return limits.length > 0 ? limits : [...(userModels ?? [])]
}

/**
 * The model the snippets name: of the token's models, the one picked or remembered while still valid, else one
 * that can chat and has a price (src/ui/lib/model-choice.ts); a common name when nothing is known.
 */
export function snippetModel(
  token: { model_limits_enabled: boolean; model_limits: string },
  userModels: readonly string[] | undefined,
  options: { prices?: ModelPrices; remembered?: string | null; picked?: string } = {},
): string {
  return chooseModel(tokenModels(token, userModels), options) ?? FALLBACK_MODEL
}
