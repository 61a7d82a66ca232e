/** 按提示长度分档计价：价格编辑器的分档、价格列表的分档行。 */
export const priceTiers = {
  'tiers.mode': '按提示长度（分档）',
  'tiers.hint': '请求按其提示长度（含缓存 token）所在的档位计费，预扣时按它可能达到的最贵档位。每一档从上一档结束处开始，最后一档没有上限。',
  'tiers.legend': '第 {n} 档',
  'tiers.from': '起始（提示 token 数）',
  'tiers.cacheHint': '可选。留空：按模型的缓存倍率乘以本档输入价格。',
  'tiers.add': '添加档位',
  'tiers.remove': '删除',
  'tiers.removeFor': '删除第 {n} 档',
  'tiers.error.from': '请输入整数 token 数。',
  'tiers.error.first': '第一档须从 0 个 token 开始。',
  'tiers.error.order': '每一档的起始须大于上一档。',
  'tiers.error.freeInput': '输入免费时不能为输出或缓存定价。',
  'tiers.range.between': '{min}–{max} token',
  'tiers.range.from': '{min} token 及以上',
  'tiers.line': '输入 {input} · 输出 {output}',
  'tiers.caption': '按提示长度分档的价格',
}
