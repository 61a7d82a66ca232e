export const logs = {
} as const
