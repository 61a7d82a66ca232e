// Types of the pricing routes' answers (types only: nothing of the server is bundled).
import type { TierShown } from '../../lib/tier-prices'
import type { PricingList, PricingOverview } from '../../../modules/pricing/service'

/** One model's line, as `/api/pricing` and `/api/pricing/models` answer it (fields by mode). */
export interface PriceItem {
  model: string
  priced: boolean
  /** ratio (per token), call (per call), free (self-use mode), none (no price) */
  mode: string
  input?: number
  output?: number
  cache_read?: number
  cache_write?: number
  per_call?: number
  model_ratio?: number
  completion_ratio?: number
  cache_ratio?: number
  create_cache_ratio?: number
  model_price?: number
  /** prices by prompt length (ModelTierPricing), each tier in US$ per 1M tokens */
  tiers?: TierShown[]
  channels?: { id: number; name: string; type: number; status: number }[]
  /** `/api/pricing`: the model's price in each group that serves it */
  group_prices?: Record<string, { mode: string; input?: number; output?: number; cache_read?: number; cache_write?: number; per_call?: number; tiers?: TierShown[] }>
}

// the server's items must fit the console's reading of them: `Fitting` fails to compile otherwise
type Fitting<ServerItem extends PriceItem> = ServerItem extends unknown ? PriceItem : never

/** `GET /api/pricing/models` (admins) */
export type Overview = Omit<PricingOverview, 'items'> & { items: Fitting<PricingOverview['items'][number]>[] }
/** `GET /api/pricing` (users; visitors when public) */
export type PublicList = Omit<PricingList, 'items'> & { items: Fitting<PricingList['items'][number]>[] }
