import { expect, test } from 'bun:test'
import { checkUserFields, createUserBody, editUserBody, quotaChange, quotaToDollarText, type UserFields } from '../../src/ui/lib/user-form'

const PER_UNIT = 500_000
const blank: UserFields = { username: '', displayName: '', password: '', role: '1', group: 'default', dollars: '0' }

test('creating needs a valid username and password; the rest is checked as the server does', () => {
  expect(checkUserFields(blank, true)).toEqual({ username: 'required', password: 'required' })
  expect(checkUserFields({ ...blank, username: 'bad name', password: 'short' }, true)).toEqual({ username: 'usernameFormat', password: 'passwordLength' })
  expect(checkUserFields({ ...blank, username: 'alice', password: 'password-123', displayName: 'x'.repeat(21), group: 'vip plus', dollars: '-1' }, true)).toEqual({
    displayName: 'displayNameLength',
    group: 'groupFormat',
    dollars: 'amount',
  })
  expect(checkUserFields({ ...blank, username: 'alice', password: 'password-123', group: '' }, true)).toEqual({ group: 'required' })
  expect(checkUserFields({ ...blank, username: 'alice', password: 'password-123', dollars: '2.5' }, true)).toEqual({})
})

test('editing keeps an empty password', () => {
  expect(checkUserFields(blank, false)).toEqual({})
  expect(checkUserFields({ ...blank, password: 'short' }, false)).toEqual({ password: 'passwordLength' })
})

test('a new user is sent with the quota in units and without empty optional fields', () => {
  expect(createUserBody({ ...blank, username: ' alice ', password: 'password-123', dollars: '2.5' }, PER_UNIT)).toEqual({
    username: 'alice',
    password: 'password-123',
    role: 1,
    group: 'default',
    quota: 1_250_000,
  })
  expect(createUserBody({ ...blank, username: 'bob', password: 'password-123', displayName: ' Bob ', role: '', group: 'vip' }, PER_UNIT)).toEqual({
    username: 'bob',
    password: 'password-123',
    display_name: 'Bob',
    group: 'vip',
    quota: 0,
  })
})

test('an edit sends only what changed: an untouched balance is not written back', () => {
  const user = { id: 7, display_name: 'Alice', role: 1, group: 'default', quota: 123_457 }
  const start: UserFields = { ...blank, displayName: 'Alice', dollars: quotaToDollarText(user.quota, PER_UNIT) }
  expect(start.dollars).toBe('0.246914')
  expect(editUserBody(user, start, PER_UNIT)).toEqual({ id: 7 })
  expect(editUserBody(user, { ...start, displayName: 'Al', password: 'new-password-1', group: 'vip', dollars: '10', role: '10' }, PER_UNIT)).toEqual({
    id: 7,
    display_name: 'Al',
    password: 'new-password-1',
    group: 'vip',
    quota: 5_000_000,
    role: 10,
  })
  // role '' means the field was not offered (not root): never sent
  expect(editUserBody(user, { ...start, role: '' }, PER_UNIT)).toEqual({ id: 7 })
})

test('balance changes: add and subtract need more than zero, set may be zero', () => {
  expect(quotaChange(3, 'add', '1.5', PER_UNIT)).toEqual({ body: { id: 3, action: 'add_quota', mode: 'add', value: 750_000 } })
  expect(quotaChange(3, 'subtract', '0', PER_UNIT)).toEqual({ error: 'positive' })
  expect(quotaChange(3, 'override', '0', PER_UNIT)).toEqual({ body: { id: 3, action: 'add_quota', mode: 'override', value: 0 } })
  expect(quotaChange(3, 'add', 'ten', PER_UNIT)).toEqual({ error: 'amount' })
  expect(quotaChange(3, 'add', '', PER_UNIT)).toEqual({ error: 'amount' })
})
