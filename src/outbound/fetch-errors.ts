/** A call that must not be made; nothing was sent. */
export class OutboundRefused extends Error {}
