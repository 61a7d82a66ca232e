/** Price sync: each compared field and value in the console's price words (not option names or bare ratios). */
export const priceSyncWords = {
  'sync.field.model_ratio': 'Input price',
  'sync.field.completion_ratio': 'Output price',
  'sync.field.cache_ratio': 'Cache read price',
  'sync.field.create_cache_ratio': 'Cache write price',
  'sync.field.model_price': 'Price per call',
  'sync.value.perMillion': '{amount} / 1M tokens',
  'sync.value.perCall': '{amount} / call',
  'sync.value.multiple': '× {times} of input',
  'sync.value.raw': 'Stored as {field} = {value}',
  'sync.source.status': 'it answered HTTP {status}',
  'sync.source.notJson': 'its answer is not JSON (is the address a new-api or Tollgate, or the path right?)',
  'sync.source.tooLarge': 'its document is larger than the gateway reads',
  'sync.source.unreachable': 'it could not be reached (address, DNS or network)',
  'upstream.error.nothingToApply': 'Tick at least one model to add or remove.',
  'upstream.error.notPending': 'The upstream’s list changed since it was read: check again, then apply.',
} as const
