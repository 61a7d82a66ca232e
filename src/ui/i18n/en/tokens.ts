export const tokens = {
} as const
