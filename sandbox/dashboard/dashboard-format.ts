// Small pieces every view renders the same way: a status as a coloured badge (its text says it;
// the colour only repeats it), and an instant as UTC text in a <time> element.
import { html } from 'ghtml'
import { toIso } from '../clock.js'

export const statusBadge = (status: string, testId = 'status'): string =>
  html`<span class="badge status-${status}" data-testid="${testId}" data-status="${status}">${status}</span>`

export const when = (ms: number): string => html`<time datetime="${toIso(ms)}">${toIso(ms).replace('T', ' ').slice(0, 19)}</time>`
