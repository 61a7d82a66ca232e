// Files embedded with `with { type: 'file' }`: the import is the file's path (in the binary, its embedded path).
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/favicon-32x32.png' {
  const path: string
  export default path
}
declare module '*.md' {
  const text: string
  export default text
}
