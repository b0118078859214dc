// Reading the detached sandbox's log file: all of it, or following it as it grows until the
// sandbox of the data folder stops (`paybox sandbox logs [-f]`).
import fs from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { setTimeout as delay } from 'node:timers/promises'
import { runningSandboxPid } from './sandbox-process.js'

const FOLLOW_INTERVAL_MS = 200

export function readLog(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Until `signal` aborts or the sandbox stops (its last lines printed); a log that starts over is followed from its start. */
export async function followLog(file: string, write: (text: string) => void, signal: AbortSignal, env?: NodeJS.ProcessEnv): Promise<void> {
  let offset = 0
  // A character split between two reads is written whole with the second.
  const decoder = new StringDecoder('utf8')
  const readNew = () => {
    let size: number
    try {
      size = fs.statSync(file).size
    } catch {
      return
    }
    if (size < offset) offset = 0
    if (size === offset) return
    const handle = fs.openSync(file, 'r')
    try {
      const chunk = Buffer.alloc(size - offset)
      const read = fs.readSync(handle, chunk, 0, chunk.length, offset)
      offset += read
      write(decoder.write(chunk.subarray(0, read)))
    } finally {
      fs.closeSync(handle)
    }
  }
  for (;;) {
    const running = runningSandboxPid(env) !== undefined
    readNew()
    if (signal.aborted || !running) return
    await delay(FOLLOW_INTERVAL_MS, undefined, { signal }).catch(() => {})
  }
}
