import type { userBindings } from '../sqlite/schema'

export type BindingRow = typeof userBindings.$inferSelect

/**
 * Sign-in provider identities bound to users (`provider`: github, discord, oidc, linuxdo, telegram, wechat or
 * custom:<id>). One identity belongs to one user and a user has one identity per provider: a second bind of
 * either is a unique violation (`isUniqueViolation`).
 */
export interface BindingRepo {
  /** The user this provider identity is bound to, if any. */
  findUserId(provider: string, externalId: string): Promise<number | undefined>
  /** The user's bindings, oldest first. */
  listByUser(userId: number): Promise<BindingRow[]>
  bind(userId: number, provider: string, externalId: string): Promise<BindingRow>
  /** A user whose e-mail is this address (compared without case), if any. */
  emailOwner(email: string): Promise<number | undefined>
  /** Remove the user's binding to this provider; false when there was none. */
  unbind(userId: number, provider: string): Promise<boolean>
}
