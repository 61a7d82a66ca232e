export const channelSuggest = {
  'channels.models.suggestedCustom': '推荐：先列出本站已定价的模型，再列常用模型，最后是已提供但未定价的模型',
} as const
