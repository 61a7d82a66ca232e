import type { settings as en } from '../en/settings'

export const settings: Record<keyof typeof en, string> = {
}
