export const upstreamModels = {
  'channels.action.upstreamModels': '上游模型',
  'upstream.title': '{name} 的上游模型',
  'upstream.checking': '正在读取上游模型列表…',
  'upstream.none': '渠道的模型与上游列表一致。',
  'upstream.added': '上游列表中有、渠道中没有',
  'upstream.removed': '渠道中有、上游列表中已没有',
  'upstream.addModel': '添加 {model}',
  'upstream.removeModel': '移除 {model}',
  'upstream.apply': '应用 {count} 项更改',
  'upstream.applied': '模型更改已应用',
} as const
