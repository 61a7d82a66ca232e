import { expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { compiledSchema, notePassed, takePassed } from '../../src/protocols/schema-check'
import { validator } from '../../src/protocols/shared'
import { protocolFor } from '../../src/relay/protocol-registry'
import { wireCheck } from '../../src/modules/relay/wire-check'

const Body = Type.Object({ model: Type.String() })

test('one compiled checker per schema, shared by every caller', () => {
  expect(compiledSchema(Body)).toBe(compiledSchema(Body))
  expect(compiledSchema(Type.Object({ model: Type.String() }))).not.toBe(compiledSchema(Body))
})

test('a body counts as checked only for the same object and schema, and only once', () => {
  const body = { model: 'm' }
  notePassed(body, Body)
  expect(takePassed({ model: 'm' }, Body)).toBe(false) // an equal copy is another object
  notePassed(body, Body)
  expect(takePassed(body, Type.Object({}))).toBe(false)
  notePassed(body, Body)
  expect(takePassed(body, Body)).toBe(true)
  expect(takePassed(body, Body)).toBe(false)
})

test('the decoder skips the check only for the body the route just checked', () => {
  const check = validator(Body)
  expect(() => check({ model: 1 })).toThrow('model')
  const bad = { model: 1 }
  notePassed(bad, Body) // as if the route had passed it: the decoder trusts that and does not check again
  expect(() => check(bad)).not.toThrow()
  expect(() => check(bad)).toThrow('model') // the slot was used up
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
