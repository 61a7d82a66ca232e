import { expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byRole, settle, useDom } from './dom'

useDom()

const key = (target: Element, name: string) => target.dispatchEvent(new (globalThis as any).window.KeyboardEvent('keydown', { key: name, bubbles: true }))

test('a menu button: opens on click with focus on the checked item, arrows cycle, Escape closes and refocuses', async () => {
  const { MenuButton } = await import('../../src/ui/components/menu')
  const picked: string[] = []
  const root = document.createElement('div')
  document.body.append(root)
  const actions = ['System', 'Light', 'Dark'].map((label) => ({ label, checked: label === 'Light', onSelect: () => picked.push(label) }))
  render(h(MenuButton, { label: 'Theme: Light', menuLabel: 'Theme', actions }), root)
  const button = byRole(root, 'button', 'Theme: Light')
  expect(button.getAttribute('aria-haspopup')).toBe('menu')
  expect(button.getAttribute('aria-expanded')).toBe('false')
  expect(root.querySelector('[role=menu]')).toBeNull()

  button.click()
  await settle()
  const menu = root.querySelector('[role=menu]') as HTMLElement
  expect(menu.getAttribute('aria-label')).toBe('Theme')
  expect(button.getAttribute('aria-expanded')).toBe('true')
  expect(button.getAttribute('aria-controls')).toBe(menu.id)
  const items = [...menu.querySelectorAll('[role=menuitemradio]')] as Element[]
  expect(items.map((item) => [item.textContent, item.getAttribute('aria-checked')])).toEqual([['System', 'false'], ['Light', 'true'], ['Dark', 'false']])
  expect(document.activeElement).toBe(items[1] as Element)
  key(menu, 'ArrowDown')
  expect(document.activeElement).toBe(items[2] as Element)
  key(menu, 'ArrowDown')
  expect(document.activeElement).toBe(items[0] as Element)
  key(menu, 'End')
  expect(document.activeElement).toBe(items[2] as Element)
  key(menu, 'Escape')
  await settle()
  expect(root.querySelector('[role=menu]')).toBeNull()
  expect(document.activeElement).toBe(button)
  expect(picked).toEqual([])

  // ArrowDown on the button opens it too; an item picked closes the menu
  key(button, 'ArrowDown')
  await settle()
  ;(root.querySelector('[role=menuitemradio]') as HTMLElement).click()
  await settle()
  expect(picked).toEqual(['System'])
  expect(root.querySelector('[role=menu]')).toBeNull()
  render(null, root)
})

test('a row menu: plain menu items, closed by a click elsewhere', async () => {
  const { RowMenu } = await import('../../src/ui/components/row-menu')
  const { I18nProvider } = await import('../../src/ui/i18n')
  const root = document.createElement('div')
  document.body.append(root)
  render(h(I18nProvider, null, h(RowMenu, { name: 'alice', actions: [{ label: 'Delete', danger: true, onSelect: () => {} }] })), root)
  byRole(root, 'button', 'Actions for alice').click()
  await settle()
  const item = root.querySelector('[role=menuitem]') as HTMLElement
  expect(item.getAttribute('aria-checked')).toBeNull()
  expect(item.className).toBe('menu-item danger')
  document.body.dispatchEvent(new (globalThis as any).window.MouseEvent('mousedown', { bubbles: true }))
  await settle()
  expect(root.querySelector('[role=menu]')).toBeNull()
  render(null, root)
})

test('a data table labels every cell with its header and marks the card title and key figure', async () => {
  const { DataTable } = await import('../../src/ui/components/data-table')
  const { I18nProvider } = await import('../../src/ui/i18n')
  const root = document.createElement('div')
  const columns = [
    { header: 'ID', numeric: true, cell: (row: { id: number }) => row.id },
    { header: 'Name', cell: () => 'alice' },
    { header: 'Balance', numeric: true, card: 'key' as const, cell: () => '$5.00' },
    { header: 'Actions', class: 'col-actions', cell: () => '⋯' },
  ]
  render(h(I18nProvider, null, h(DataTable, { caption: 'Users', columns, rows: [{ id: 7 }], loading: false, empty: null })), root)
  const cells = [...root.querySelectorAll('tbody td')].map((cell) => [cell.getAttribute('data-label'), cell.className, cell.textContent])
  expect(cells).toEqual([
    ['ID', 'num', '7'],
    ['Name', 'cell-title', 'alice'],
    ['Balance', 'num cell-key', '$5.00'],
    ['Actions', 'col-actions', '⋯'],
  ])
  expect(root.querySelector('table')?.className).toBe('table table-cards')
  render(null, root)
})
