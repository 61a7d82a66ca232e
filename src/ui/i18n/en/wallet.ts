export const wallet = {
} as const
