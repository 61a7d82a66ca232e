export const channelHealth = {
  'channels.action.testNamed': 'Test {name}',
  'channels.action.duplicate': 'Duplicate',
  'channels.copySuffix': ' (copy)',
  'channels.toast.duplicated': "Duplicated '{name}'",
  'channels.test.failedShort': 'Last test failed',
  'channels.test.failedAt': 'The test of {time} failed',
  'channels.models.none': 'No models',
  'channels.models.moreShort': '+{count}',
} as const
