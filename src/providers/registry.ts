import { anthropic } from './anthropic'
import { azure } from './azure'
import { custom } from './custom'
import { deepseek } from './deepseek'
import { gemini } from './gemini'
import { mistral } from './mistral'
import { moonshot } from './moonshot'
import { ollama } from './ollama'
import { openai } from './openai'
import { openrouter } from './openrouter'
import { siliconflow } from './siliconflow'
import type { Provider } from './types'
import { xai } from './xai'

/** Every supported provider, keyed by new-api channel type. Adding a vendor = one data file + one line. */
export const PROVIDERS: readonly Provider[] = [openai, azure, ollama, custom, anthropic, openrouter, gemini, moonshot, siliconflow, mistral, deepseek, xai]

const byType = new Map(PROVIDERS.map((p) => [p.type, p]))

export function providerFor(type: number): Provider | undefined {
  return byType.get(type)
}

export function supportedTypes(): number[] {
  return [...byType.keys()]
}
