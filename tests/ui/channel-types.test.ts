import { expect, test } from 'bun:test'
import { PRESETS } from '../../src/providers/presets'
import { PROVIDERS } from '../../src/providers/registry'
import { CHANNEL_PRESETS, CHANNEL_TYPES, channelType, channelTypeName } from '../../src/ui/lib/channel-types'

test('the console’s channel types are the providers’: same numbers, names, default base URLs and key needs, same order', () => {
  expect(CHANNEL_TYPES.map((t) => ({ ...t }))).toEqual(
    // a connector provider (Bedrock, Vertex) makes its address from the key: its base URL is optional
    PROVIDERS.map((p) => ({ type: p.type, name: p.name, baseUrl: p.defaultBaseUrl, keyRequired: p.keyRequired, ...(p.connector ? { baseUrlOptional: true } : {}) })),
  )
})

test('the console’s Custom presets are the providers’: same names and base URLs, same order', () => {
  expect(CHANNEL_PRESETS.map((p) => ({ ...p }))).toEqual(PRESETS.map((p) => ({ name: p.name, baseUrl: p.baseUrl })))
})

test('names by number; an unknown number still shows', () => {
  expect(channelTypeName(14)).toBe('Anthropic')
  expect(channelType(3)?.baseUrl).toBe('')
  expect(channelTypeName(999)).toBe('#999')
})
