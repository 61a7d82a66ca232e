// SVG files imported `with { type: 'text' }`: their markup (the built-in mark, the vendor icons)
declare module '*.svg' {
  const markup: string
  export default markup
}
