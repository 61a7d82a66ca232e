import type { TokenRow, UserRow } from '../db/repos'
import { servesAnything } from '../providers/registry'
import type { Channel } from './routing'
import { tokenAllowsModel } from './auth/model-allowed'

export interface ListedModel {
  id: string
  ownedBy: string
}

/** The models a token may call: its group's enabled channels, narrowed by the token's model limits. */
export function modelsForToken(channels: readonly Channel[], token: TokenRow, user: UserRow): ListedModel[] {
  const group = token.group || user.group
  const seen = new Map<string, ListedModel>()
  for (const channel of channels) {
    if (channel.status !== 1 || !channel.groups.includes(group) || !servesAnything(channel.provider)) continue
    for (const id of channel.models) {
      if (!seen.has(id) && tokenAllowsModel(token, id)) seen.set(id, { id, ownedBy: channel.provider.id })
    }
  }
  return [...seen.values()].sort((a, b) => a.id.localeCompare(b.id))
}

const CREATED = 1_700_000_000 // a fixed, plausible creation time: channels do not know when a vendor made a model

/** One model object that both the OpenAI and the Anthropic SDK parse. */
export function modelObject(model: ListedModel) {
  return {
    id: model.id,
    object: 'model',
    created: CREATED,
    owned_by: model.ownedBy,
    type: 'model',
    display_name: model.id,
    created_at: new Date(CREATED * 1000).toISOString(),
  }
}

export function modelList(models: ListedModel[]) {
  return {
    object: 'list',
    data: models.map(modelObject),
    has_more: false,
    first_id: models[0]?.id ?? null,
    last_id: models.at(-1)?.id ?? null,
  }
}
