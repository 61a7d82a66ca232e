import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Repos } from '../../../src/db/repos'
import { DIALECTS } from './dialects'

/** Notification settings in both dialects: one row per user, replaced on save; root recipients with or without a row. */
for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(dialect.name, () => {
    let repos: Repos
    let close: () => Promise<void>
    beforeAll(async () => {
      ;({ repos, close } = await dialect.open())
    })
    afterAll(() => close())

    test('put inserts then replaces; recipientsAtRole joins the settings, enabled users at the role only', async () => {
      const root = await repos.users.insert({ username: 'root1', password: 'x', role: 100, email: 'r@example.com' })
      const other = await repos.users.insert({ username: 'root2', password: 'x', role: 100, status: 2 })
      await repos.users.insert({ username: 'plain', password: 'x', role: 1 })
      const fields = { notifyType: 'webhook', quotaWarningThreshold: 5_000_000_000, webhookUrl: 'https://h.example/x', webhookSecret: 'v1:a:b', notificationEmail: '' }
      expect(await repos.notifySettings.get(root.id)).toBeUndefined()
      await repos.notifySettings.put(root.id, fields)
      const saved = await repos.notifySettings.put(root.id, { ...fields, notifyType: 'email', notificationEmail: 'n@example.com' })
      expect(saved).toMatchObject({ userId: root.id, notifyType: 'email', quotaWarningThreshold: 5_000_000_000, notificationEmail: 'n@example.com' })
      expect(await repos.notifySettings.get(root.id)).toEqual(saved)
      const recipients = await repos.notifySettings.recipientsAtRole(100, 10)
      expect(recipients).toEqual([{ userId: root.id, email: 'r@example.com', settings: saved }])
      expect(recipients.some((r) => r.userId === other.id)).toBe(false)
    })
  })
}
