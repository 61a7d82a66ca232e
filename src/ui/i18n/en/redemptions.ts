export const redemptions = {
} as const
