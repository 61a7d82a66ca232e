/** 设置 › 计费：未设置输出上限的请求发出时带的上限，以及按引用传入的输入。 */
export const outputCaps = {
  'settings.option.ModelMaxOutputTokens': '各模型最大输出（JSON）',
  'settings.hint.ModelMaxOutputTokens':
    '模型 → 输出 token 数，例如 {"qwen3-235b-a22b-thinking": 32768}。未设置最大输出的计费请求会带上这个上限发出，余额不够时降到余额能买到的数量。常见系列（GPT-5、o 系列、Claude、Gemini、DeepSeek）已有默认值。',
  'settings.option.MinOutputTokens': '最少可服务输出 token 数',
  'settings.hint.MinOutputTokens': '未设置最大输出的请求，若余额能买到的输出 token 少于这个数，就拒绝该请求。',
  'settings.option.ModelContextTokens': '各模型上下文窗口（JSON）',
  'settings.hint.ModelContextTokens':
    '模型 → token 数。输入有一部分在别处的请求（previous_response_id、cachedContent、文件 id、图片 URL）按这个数预留额度，因为请求体看不出上游会计多少。',
  'settings.option.DefaultContextTokens': '默认上下文窗口',
  'settings.hint.DefaultContextTokens': '没有任何表列出的模型的上下文窗口。',
} as const
