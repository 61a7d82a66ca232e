export const upstreamCheck = {
  'upstreamCheck.enabled': 'Check the upstream’s model list every 30 minutes',
  'upstreamCheck.enabledHint': 'What it finds waits for review under “Upstream models”.',
  'upstreamCheck.autoSync': 'Add new upstream models automatically',
  'upstreamCheck.autoSyncHint': 'New models are added by the scheduled check; models gone upstream are never removed on their own.',
  'upstreamCheck.pending': '{count} model changes',
  'upstreamCheck.pendingTitle': 'Upstream check: {added} new, {removed} gone',
  'upstreamCheck.lastCheck': 'Last checked {time}',
  'upstreamCheck.checkAgain': 'Check again',
  'upstreamCheck.ignore': 'Ignore ticked additions',
} as const
