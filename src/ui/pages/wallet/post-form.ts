/** Post EPay's signed form from the page, as its protocol wants (a top-level navigation to the gateway). */
export function postForm(url: string, params: Record<string, string>): void {
  const form = document.createElement('form')
  form.method = 'POST'
  form.action = url
  for (const [name, value] of Object.entries(params)) {
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.append(input)
  }
  document.body.append(form)
  form.submit()
}
