export { verifyToken, type VerifiedToken, type VerifyTokenInput } from './verify-token'
export { ANTHROPIC_KEY_SOURCES, GEMINI_KEY_SOURCES, type KeySource } from './extract-key'
export { TokenAuthError, type TokenAuthReason } from './token-auth-error'
export { tokenAllowsModel } from './model-allowed'
