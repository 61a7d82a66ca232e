/**
 * The rows the repositories take and give, whatever the dialect. They are inferred from the SQLite schema;
 * the PostgreSQL schema infers exactly the same types (tests/db/postgres/schema.test.ts fails the typecheck
 * otherwise), so one interface serves both.
 */
import type { abilities, channels, logs, redemptions, revokedSessions, subscriptionPlans, tokens, topups, userSubscriptions, users } from '../sqlite/schema'

export type UserRow = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert
export type UserPatch = Partial<Omit<NewUser, 'id'>>

export type TokenRow = typeof tokens.$inferSelect
export type NewToken = typeof tokens.$inferInsert
export type TokenPatch = Partial<Omit<NewToken, 'id' | 'userId' | 'keyHash' | 'keyHint'>>

export type ChannelRow = typeof channels.$inferSelect
export type NewChannel = typeof channels.$inferInsert
export type ChannelPatch = Partial<Omit<NewChannel, 'id' | 'createdTime'>>
export type AbilityRow = typeof abilities.$inferSelect

export type LogRow = typeof logs.$inferSelect
export type NewLog = typeof logs.$inferInsert

export type RedemptionRow = typeof redemptions.$inferSelect
export type NewRedemption = typeof redemptions.$inferInsert
export type RedemptionPatch = Partial<Pick<NewRedemption, 'name' | 'quota' | 'status' | 'expiredTime'>>

export type RevokedSessionRow = typeof revokedSessions.$inferSelect

/** One page of a list, and how many rows match in all. */
export interface Page<T> {
  items: T[]
  total: number
}

export type TopUpRow = typeof topups.$inferSelect
export type NewTopUp = typeof topups.$inferInsert

export type SubscriptionPlanRow = typeof subscriptionPlans.$inferSelect
export type NewSubscriptionPlan = typeof subscriptionPlans.$inferInsert
export type UserSubscriptionRow = typeof userSubscriptions.$inferSelect
export type NewUserSubscription = typeof userSubscriptions.$inferInsert
