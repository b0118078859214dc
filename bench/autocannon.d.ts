// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  export interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  export interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    timeout?: number
    requests?: Array<AutocannonRequest & { setupRequest?: (request: AutocannonRequest, context: object) => AutocannonRequest }>
  }
  export interface Histogram {
    average: number
    mean: number
    p50: number
    p90: number
    p97_5: number
    p99: number
    max: number
  }
  export interface Result {
    requests: Histogram & { total: number }
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    non2xx: number
    duration: number
    '2xx': number
  }
  /** A run started with a callback: it reports each answer as it comes, then 'done'. */
  export interface Instance {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this
    once(event: 'done', listener: (result: Result) => void): this
  }
  function autocannon(options: Options): Promise<Result>
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance
  export default autocannon
}
