import type { HttpContext } from '../context.js'
import { pathRoute } from '../send.js'
import type { Representation, Snapshot } from '../../snapshot/index.js'

const DATASETS: Record<string, (s: Snapshot) => Representation> = {
  '/reviews.json': (s) => s.resources.reviews,
  '/insights.json': (s) => s.resources.insights,
  '/api/feed.json': (s) => s.resources.feedJson,
  '/feed.xml': (s) => s.resources.feedAtom
}

/** The datasets and the three WebSub topics: bytes straight from the current snapshot. */
export function datasetRoutes(ctx: HttpContext): void {
  for (const [url, pick] of Object.entries(DATASETS)) {
    pathRoute(ctx, url, () => pick(ctx.holder.current))
  }
}

export function staticRoute(ctx: HttpContext, url: string, rep: Representation): void {
  pathRoute(ctx, url, () => rep)
}
