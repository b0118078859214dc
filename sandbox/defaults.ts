// Defaults of `paybox sandbox start`, kept apart from server.ts so the CLI can show them
// without loading the server.
export const DEFAULT_PORT = 4242
export const DEFAULT_HOST = '127.0.0.1'
