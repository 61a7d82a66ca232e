/** `?new=1` in the address (the first-run checklist's links): the page opens its "New …" drawer at once. */
export const asksForNew = (search: string): boolean => new URLSearchParams(search).has('new')
