/** Queries over a snapshot, shared by HTTP and MCP: one validation, one envelope. */
export { searchReviews, toSearchResult, pageJson, type SearchPage } from './search.js'
export { reviewsSince, toSinceResult, sinceJson, type SincePage } from './since.js'
export {
  businessInfo,
  reviewsSincePage,
  reviewById,
  aspectSentiment,
  technicianInsight,
  serviceInsight,
  faqAnswers,
  insightsSummary
} from './lookups.js'
