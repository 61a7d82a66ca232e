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

test('every channel type in the type table suggests models, its test model among them (Dify, Coze, Midjourney, Suno included)', () => {
  const without = PROVIDERS.filter((p) => p.models.length === 0 || !p.models.includes(p.testModel)).map((p) => p.name)
  expect(without).toEqual([])
  expect(PROVIDERS.map((p) => p.type)).toEqual(expect.arrayContaining([2, 5, 36, 37, 49]))
})
