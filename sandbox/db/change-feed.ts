// Tells listeners that what they watch may have changed, from one source for all of them: this
// process's commits as they happen (onCommit, as the webhook dispatcher hears of them) and one
// slow poll for another process writing to the same file. A wake-up reads `version` once, however
// many listen, and listeners hear only of a new version: a thousand open streams cost one query
// per change, not a thousand per poll.
import { onCommit, type SandboxDb } from './database.js'

export class ChangeFeed {
  readonly #listeners = new Set<() => void>()
  #version: string | undefined
  #timer: NodeJS.Timeout | undefined
  #stopCommits: (() => void) | undefined
  #checking = false
  #checkAgain = false
  #checkScheduled = false

  constructor(
    private readonly db: SandboxDb,
    /** A cheap summary of what listeners watch: they are woken when it differs. */
    private readonly version: (db: SandboxDb) => Promise<string>,
    private readonly pollMs: number,
  ) {}

  /** Calls `listener` after each change from now on (it should read what changed itself); returns a function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener)
    if (this.#listeners.size === 1) this.#start()
    return () => {
      if (this.#listeners.delete(listener) && this.#listeners.size === 0) this.#stop()
    }
  }

  #start(): void {
    // Not known yet: the first check wakes everyone, so nothing committed meanwhile is missed.
    this.#version = undefined
    this.#timer = setInterval(() => void this.#check(), this.pollMs).unref()
    this.#stopCommits = onCommit(this.db, () => this.#checkSoon())
    this.#checkSoon()
  }

  #stop(): void {
    clearInterval(this.#timer)
    this.#stopCommits?.()
    this.#timer = this.#stopCommits = undefined
  }

  /** One check for all the commits of this turn of the event loop. */
  #checkSoon(): void {
    if (this.#checkScheduled) return
    this.#checkScheduled = true
    setImmediate(() => {
      this.#checkScheduled = false
      void this.#check()
    })
  }

  async #check(): Promise<void> {
    if (this.#checking) {
      this.#checkAgain = true
      return
    }
    this.#checking = true
    try {
      do {
        this.#checkAgain = false
        if (this.#listeners.size === 0) return
        // A failing read (the database closed by a restore) wakes listeners, whose own reads fail and end them.
        const version = await this.version(this.db).catch(() => undefined)
        if (version !== undefined && version === this.#version) continue
        this.#version = version
        for (const listener of [...this.#listeners]) listener()
      } while (this.#checkAgain)
    } finally {
      this.#checking = false
    }
  }
}
