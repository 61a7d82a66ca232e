import { useMemo, useState } from 'preact/hooks'
import type { PricingList } from '../../modules/pricing/service'
import { api } from '../api/client'
import { pricesFrom, type ModelPrices } from '../lib/model-choice'
import { useApi } from './use-api'

/**
 * Which of the caller's models have a price (`GET /api/pricing`): `prices` undefined while loading or when the
 * call failed (the choice then goes by name alone), `loading` true until the first answer or failure.
 */
export function useModelPrices(): { prices: ModelPrices | undefined; loading: boolean } {
  const list = useApi(() => api.get<PricingList>('/api/pricing'), [])
  const prices = useMemo(() => (list.data ? pricesFrom(list.data) : undefined), [list.data])
  return { prices, loading: list.loading && !list.data }
}

export interface ModelMemory {
  /** the model last chosen under the key, on an earlier visit too (localStorage) */
  remembered: string | null
  /** the model picked since this component mounted */
  picked: string | undefined
  remember(model: string): void
}

/** The model chosen under `key`, remembered in localStorage (which may be unavailable). */
export function useRememberedModel(key: string): ModelMemory {
  const [remembered] = useState(() => read(key))
  const [picked, setPicked] = useState<string>()
  const remember = (model: string) => {
    setPicked(model)
    try {
      localStorage.setItem(key, model)
    } catch {
      // private mode or storage full: the choice holds until the page closes
    }
  }
  return { remembered, picked, remember }
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}
