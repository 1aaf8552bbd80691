import type { ImportDocument } from '../domain/index.js'
import { NoBusinessError, type Store } from '../store/index.js'

/**
 * A full backup in the import format: the business and every stored review, unverified ones too, as they were
 * imported (computed fields are left out, since an import recomputes them). Importing it into an empty database gives
 * the same reviews back.
 */
export async function exportDocument(store: Store): Promise<ImportDocument> {
  const dump = await store.dump()
  if (!dump.business) throw new NoBusinessError()
  return { business: dump.business, reviews: dump.reviews.map((r) => r.review) }
}
