export const channelSuggest = {
  'channels.models.suggestedCustom': 'Suggested: models priced on this instance first, then common ones, then ones served without a price',
} as const
