import type { redemptions as en } from '../en/redemptions'

export const redemptions: Record<keyof typeof en, string> = {
}
