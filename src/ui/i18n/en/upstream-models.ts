export const upstreamModels = {
  'channels.action.upstreamModels': 'Upstream models',
  'upstream.title': 'Upstream models of {name}',
  'upstream.checking': 'Reading the upstream’s model list…',
  'upstream.none': 'The channel’s models match the upstream’s list.',
  'upstream.added': 'On the upstream’s list, not on the channel',
  'upstream.removed': 'On the channel, gone from the upstream’s list',
  'upstream.addModel': 'Add {model}',
  'upstream.removeModel': 'Remove {model}',
  'upstream.apply': 'Apply {count} changes',
  'upstream.applied': 'Model changes applied',
} as const
