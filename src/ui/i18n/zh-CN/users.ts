import type { users as en } from '../en/users'

export const users: Record<keyof typeof en, string> = {
}
