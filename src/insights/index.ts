/**
 * Insights: aspect-based sentiment, entities, topics, FAQ and summary, computed locally and deterministically from
 * the reviews (no network model). The engine keeps per-review work between builds.
 */
export { InsightsEngine, INSIGHTS_VERSION, MODEL } from './engine.js'
export { FUNERAL_HOME_TAXONOMY } from './funeral-home-taxonomy.js'
