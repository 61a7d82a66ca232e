import { expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

test('the setup form checks before sending and shows the server refusal as an alert', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { CredentialsForm } = await import('../../src/ui/pages/auth/credentials-form')
  const { ApiError } = await import('../../src/ui/api/client')
  const sent: unknown[] = []
  const container = document.createElement('div')
  document.body.append(container)
  render(
    h(I18nProvider, null, h(CredentialsForm, {
      strict: true,
      confirm: true,
      submitLabel: 'Create',
      onSubmit: async (c) => {
        sent.push(c)
        throw new ApiError(409, 'root already exists')
      },
    })),
    container,
  )
  await settle()
  byRole(container, 'button', 'Create').click()
  await settle()
  expect(sent).toEqual([])
  expect(container.textContent).toContain('Fill in this field')

  typeInto(byLabel(container, 'Username'), 'root')
  typeInto(byLabel(container, 'Password'), 'short')
  typeInto(byLabel(container, 'Confirm password'), 'other')
  await settle()
  byRole(container, 'button', 'Create').click()
  await settle()
  expect(sent).toEqual([])
  expect(container.textContent).toContain('The password must be 8 to 64 characters')
  expect(container.textContent).toContain('The two passwords differ')

  typeInto(byLabel(container, 'Password'), 'long-enough-1')
  typeInto(byLabel(container, 'Confirm password'), 'long-enough-1')
  await settle()
  byRole(container, 'button', 'Create').click()
  await settle()
  await settle()
  expect(sent).toEqual([{ username: 'root', password: 'long-enough-1' }])
  expect(byRole(container, 'alert').textContent).toBe('root already exists')
})
