import { expect, test } from 'bun:test'
import type { TokenRow } from '../../../src/db/repos'
import { tokenAllowsModel } from '../../../src/relay/auth'

const token = (modelLimitsEnabled: boolean, modelLimits: string) => ({ modelLimitsEnabled, modelLimits }) as TokenRow

test('without model limits every model is allowed', () => {
  expect(tokenAllowsModel(token(false, 'gpt-4o'), 'claude-sonnet-4')).toBe(true)
})

test('with model limits only the listed models are allowed', () => {
  const limited = token(true, 'gpt-4o, claude-sonnet-4')
  expect(tokenAllowsModel(limited, 'gpt-4o')).toBe(true)
  expect(tokenAllowsModel(limited, 'claude-sonnet-4')).toBe(true)
  expect(tokenAllowsModel(limited, 'gpt-4o-mini')).toBe(false)
  expect(tokenAllowsModel(token(true, ''), 'gpt-4o')).toBe(false)
})
