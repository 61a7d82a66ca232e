export const channelBalance = {
  'channels.col.balance': '余额',
  'channels.action.updateBalance': '更新余额',
  'channels.balance.updated': '{name}:余额 {balance}',
  'channels.balance.at': '供应商于 {time} 返回,以账户币种计',
  'channels.balance.never': '尚未查询:在该行菜单中选择“更新余额”',
  'channels.balance.unsupported': 'Tollgate 不知道该供应商的余额接口。',
  'channels.balance.failed': '供应商未返回余额:请检查渠道的密钥和 Base URL 后重试。',
} as const
