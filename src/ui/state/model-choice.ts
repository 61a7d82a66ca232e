import { useMemo, useState } from 'preact/hooks'
import type { PricingList } from '../../modules/pricing/service'
import { api } from '../api/client'
import { pricesFrom, type ModelPrices } from '../lib/model-choice'
import { useApi } from './use-api'

/** Which of the caller's models have a price (`GET /api/pricing`); undefined while loading or when it fails (the choice then goes by name). */
export function useModelPrices(): ModelPrices | undefined {
  const list = useApi(() => api.get<PricingList>('/api/pricing'), [])
  return useMemo(() => (list.data ? pricesFrom(list.data) : undefined), [list.data])
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
