import type { channelOverrides as en } from '../en/channel-overrides'

export const channelOverrides: Record<keyof typeof en, string> = {
  'channelOverrides.title': '覆盖与代理',
  'channelOverrides.paramOverride': '参数覆盖',
  'channelOverrides.paramOverrideHint': '与 new-api 相同的 JSON：要设置的字段，或 {"operations": [...]}，支持 set、delete、move、prepend、append、block、pass 及条件。作用于发往上游的请求体。',
  'channelOverrides.headerOverride': '请求头覆盖',
  'channelOverrides.headerOverrideHint': '请求头名到值的 JSON；{api_key} 为当前使用的密钥，{request_id} 为请求 ID。',
  'channelOverrides.statusCodeMapping': '状态码映射',
  'channelOverrides.statusCodeMappingHint': '把上游错误状态码视为另一个，例如 {"400": "500"}，使 400 改试下一个渠道。',
  'channelOverrides.systemPrompt': '系统提示词',
  'channelOverrides.systemPromptHint': '请求中没有系统提示词时添加。',
  'channelOverrides.systemPromptOverride': '请求自带系统提示词时，也拼接在其前面',
  'channelOverrides.proxy': '代理',
  'channelOverrides.proxyHint': 'http://、https:// 或 socks5://（可含 用户名:密码@）。密码保存后不再显示。',
  'channelOverrides.error.json': '这不是有效的 JSON。',
  'channelOverrides.error.object': '这里需要一个 JSON 对象（{ … }）。',
  'channelOverrides.error.proxy': '代理格式为 协议://主机:端口（http、https 或 socks5）。',
  'errors.invalidOverride': '服务器拒绝了“{field}”：请按提示中的格式检查。',
}
