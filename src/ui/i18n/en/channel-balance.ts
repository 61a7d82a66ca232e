export const channelBalance = {
  'channels.col.balance': 'Balance',
  'channels.action.updateBalance': 'Update balance',
  'channels.balance.updated': "{name}: balance {balance}",
  'channels.balance.at': 'As the vendor said at {time}, in the account’s currency',
  'channels.balance.never': 'Not asked yet: “Update balance” in the row’s menu',
  'channels.balance.unsupported': 'This vendor has no balance endpoint Tollgate knows.',
  'channels.balance.failed': 'The vendor did not tell the balance: check the channel’s key and base URL, then try again.',
} as const
