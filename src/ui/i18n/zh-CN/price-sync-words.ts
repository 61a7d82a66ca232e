export const priceSyncWords = {
  'sync.field.model_ratio': '输入价格',
  'sync.field.completion_ratio': '输出价格',
  'sync.field.cache_ratio': '缓存读取价格',
  'sync.field.create_cache_ratio': '缓存写入价格',
  'sync.field.model_price': '按次价格',
  'sync.value.perMillion': '{amount} / 百万 tokens',
  'sync.value.perCall': '{amount} / 次',
  'sync.value.multiple': '输入价格的 {times} 倍',
  'sync.value.raw': '存储为 {field} = {value}',
} as const
