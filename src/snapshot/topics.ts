import type { Urls } from '../config/index.js'
import type { Snapshot } from './build.js'
import type { Representation } from './representation.js'

/** A WebSub topic: a public URL and the representation of it in a snapshot. */
export interface Topic {
  url: string
  pick(s: Snapshot): Representation
}

/** The three topics the hub serves: the Atom feed, the JSON Feed and the full dataset. */
export function topics(urls: Urls): Topic[] {
  return [
    { url: urls.feedAtom, pick: (s) => s.resources.feedAtom },
    { url: urls.feedJson, pick: (s) => s.resources.feedJson },
    { url: urls.reviews, pick: (s) => s.resources.reviews }
  ]
}
