import type { ChannelRow } from '../../db/repos/channels'
import { keyHint } from '../../relay/mask'
import { settingView } from './override-input'

/** `sk-ab…wxyz (2 keys)`: enough to tell keys apart, never enough to use one. */
function maskKeys(keys: readonly string[]): string {
  const first = keys[0]
  if (!first) return ''
  let mask: string
  if (first.length >= 16) mask = `${first.slice(0, 5)}…${first.slice(-4)}`
  else if (first.length >= 10) mask = `${first.slice(0, 2)}…${first.slice(-2)}`
  else mask = '…'
  return keys.length > 1 ? `${mask} (${keys.length} keys)` : mask
}

/** A channel as the API shows it. The key column (ciphertext) and plain keys never appear. */
export function toChannelView(row: ChannelRow, keys: readonly string[]) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    key_mask: maskKeys(keys),
    key_count: keys.length,
    base_url: row.baseUrl,
    models: row.models,
    group: row.group,
    priority: row.priority,
    weight: row.weight,
    tag: row.tag,
    status: row.status,
    model_mapping: row.modelMapping,
    test_model: row.testModel,
    auto_ban: row.autoBan,
    other: row.other,
    setting: settingView(row.setting),
    /** new-api's `settings` JSON text: the upstream model check's switches and last findings */
    settings: row.settings,
    param_override: row.paramOverride,
    header_override: row.headerOverride,
    status_code_mapping: row.statusCodeMapping,
    used_quota: row.usedQuota,
    response_time: row.responseTime,
    test_time: row.testTime,
    /** the last test's failure (code, status, method, url, message); null when it passed or never ran */
    test_error: testErrorOf(row.testError),
    /** US$ left at the vendor as its billing endpoint last said (GET /api/channel/update_balance), and when (0: never) */
    balance: row.balance,
    balance_updated_time: row.balanceUpdatedTime,
    created_time: row.createdTime,
  }
}

export interface TestErrorView {
  code: string
  status: number
  method: string
  url: string
  message: string
}

function testErrorOf(text: string): TestErrorView | null {
  if (!text) return null
  try {
    return JSON.parse(text) as TestErrorView
  } catch {
    return null
  }
}

export type ChannelView = ReturnType<typeof toChannelView>

/** Each key of a pool as the console lists it: position (1-based), a hint (`…wxyz`) and whether the relay skips it. */
export function keyStates(keys: readonly string[], outOfRotation: (key: string) => boolean) {
  return keys.map((key, i) => ({ position: i + 1, hint: keyHint(key), out_of_rotation: outOfRotation(key) }))
}

export type KeyStateView = ReturnType<typeof keyStates>[number]
