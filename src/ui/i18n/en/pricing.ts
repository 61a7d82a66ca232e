export const pricing = {
} as const
