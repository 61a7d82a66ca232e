import { expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { compiledSchema } from '../../src/protocols/schema-check'
import { protocolFor } from '../../src/relay/protocol-registry'
import { wireCheck } from '../../src/modules/relay/wire-check'

const Body = Type.Object({ model: Type.String() })

test('one compiled checker per schema, shared by every caller', () => {
  expect(compiledSchema(Body)).toBe(compiledSchema(Body))
  expect(compiledSchema(Type.Object({ model: Type.String() }))).not.toBe(compiledSchema(Body))
})

test('a decoder skips the schema check only when told the body was checked already', () => {
  const chat = protocolFor('openai-chat')
  const bad = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], temperature: 'hot' }
  expect(() => chat.decodeRequest(bad)).toThrow('temperature')
  // the relay routes pass `checked` after their own wire check; the decoder trusts it and does not check again
  expect(() => chat.decodeRequest(bad, { checked: true })).not.toThrow()
})

test("a relay route's wire check and its protocol's decoder: a bad body is refused by each on its own", () => {
  const chat = protocolFor('openai-chat')
  const routeCheck = wireCheck('body', chat.requestSchema)
  expect(() => routeCheck({ model: 'gpt-4o', messages: 'hi' })).toThrow()
  expect(() => chat.decodeRequest({ model: 'gpt-4o', messages: 'hi' })).toThrow('messages')
  const good = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }
  routeCheck(good)
  expect(chat.decodeRequest(good).value.model).toBe('gpt-4o')
})
