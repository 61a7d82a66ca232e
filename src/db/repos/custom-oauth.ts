import type { customOAuthProviders } from '../sqlite/schema'

export type CustomOAuthRow = typeof customOAuthProviders.$inferSelect
/** A provider's fields as root sets them (the secret already sealed). */
export type CustomOAuthFields = Omit<CustomOAuthRow, 'id' | 'createdTime' | 'updatedTime'>

/** Custom sign-in providers (new-api's custom_oauth_providers); a slug is unique (`isUniqueViolation`). */
export interface CustomOAuthRepo {
  list(): Promise<CustomOAuthRow[]>
  findById(id: number): Promise<CustomOAuthRow | undefined>
  findBySlug(slug: string): Promise<CustomOAuthRow | undefined>
  insert(fields: CustomOAuthFields): Promise<CustomOAuthRow>
  update(id: number, fields: CustomOAuthFields): Promise<CustomOAuthRow | undefined>
  /** Deletes the provider and every user's binding to it (`custom:<id>`), in one transaction; false when there was none. */
  delete(id: number): Promise<boolean>
}
