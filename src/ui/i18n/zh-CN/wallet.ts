import type { wallet as en } from '../en/wallet'

export const wallet: Record<keyof typeof en, string> = {
}
