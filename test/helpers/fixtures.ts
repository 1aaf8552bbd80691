import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A small business made in the test, with names chosen to exercise mention detection. */
export function business(overrides: Record<string, unknown> = {}) {
  return {
    id: 'quiet-oak',
    name: 'Quiet Oak Funeral Home',
    category: 'Funeral home',
    description: 'A test funeral home.',
    url: 'https://quiet-oak.example',
    telephone: '+1-555-0100',
    email: 'office@quiet-oak.example',
    address: { street: '1 Elm St', locality: 'Fairview', region: 'OR', postal_code: '97000', country: 'US' },
    geo: null,
    hours: [{ day: 'monday', opens: '09:00', closes: '17:00' }],
    technicians: [
      { name: 'Evelyn Marsh', role: 'Funeral director', aliases: ['Evie'] },
      { name: 'Theodore Quist', role: 'Crematory operator', aliases: ['Teddy'] },
      { name: 'Grace Whitfield', role: 'Celebrant', aliases: [] }
    ],
    services: [
      { id: 'direct-cremation', name: 'Direct Cremation', description: null, aliases: ['simple cremation'] },
      { id: 'graveside-service', name: 'Graveside Service', description: null, aliases: ['graveside'] }
    ],
    service_areas: ['Fairview', 'Elm Hollow'],
    same_as: [],
    ...overrides
  }
}

let counter = 0

/** One review; every field can be overridden. Ids sort in creation order. */
export function review(overrides: Record<string, unknown> = {}) {
  counter++
  return {
    id: `r${String(counter).padStart(4, '0')}`,
    author: `Author ${counter}`,
    author_avatar_url: null,
    rating: 5,
    date: '2024-01-01',
    published_at: null,
    text: 'Kind people.',
    source: 'google',
    source_url: null,
    owner_reply: null,
    verified: true,
    language: 'en',
    ...overrides
  }
}

export function dataset(reviews: Record<string, unknown>[], b: Record<string, unknown> = business()) {
  return { business: b, reviews }
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(value, null, 2))
  return file
}
