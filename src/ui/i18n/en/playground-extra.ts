export const playgroundExtra = {
  'playground.image': 'Image {n}',
  'playground.copyAnswer': 'Copy the answer',
  'playground.regenerate': 'Regenerate',
  'playground.attach': 'Add images',
  'playground.attachHint': 'For models that read images (vision): PNG, JPEG, WebP or GIF, up to {count} of {mb} MB each.',
  'playground.attach.tooBig': '{name} is over {mb} MB.',
  'playground.attach.tooMany': 'At most {count} images.',
  'playground.removeImage': 'Remove image {n}',
  'playground.exchange': 'Request and response',
  'playground.exchange.request': 'Request: POST /pg/chat/completions (your session signs it: no key is sent)',
  'playground.exchange.response': 'Response: HTTP {status}, {count} stream events',
  'playground.exchange.none': 'Send a message to see the request and the answer as they went over the wire.',
} as const
