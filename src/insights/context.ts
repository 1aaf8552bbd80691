import type { Business } from '../domain/index.js'
import type { MentionIndex } from '../mentions/index.js'
import type { AnalysisContext } from './analyze.js'
import { FUNERAL_HOME_TAXONOMY } from './funeral-home-taxonomy.js'
import { compileModel, LEARNED_MODEL } from './model.js'
import { compileTaxonomy } from './taxonomy.js'

/** Compiled once per thread; every context of the built-in taxonomy shares it. */
const SHIPPED = LEARNED_MODEL ? compileModel(LEARNED_MODEL) : undefined

/**
 * What analysing a business's reviews needs, the same in every thread: its taxonomy (or the built-in one) and, for the
 * built-in taxonomy only, the learned reader (it knows the built-in aspects alone).
 */
export function analysisContext(business: Business, mentions: MentionIndex): AnalysisContext {
  return { taxonomy: compileTaxonomy(business.taxonomy ?? FUNERAL_HOME_TAXONOMY), mentions, model: business.taxonomy ? undefined : SHIPPED }
}
