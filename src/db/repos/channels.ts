export * from '../sqlite/repos/channels'
