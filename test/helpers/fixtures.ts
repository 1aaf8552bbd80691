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

/** A complete business file with nothing of a funeral home in it, and its own taxonomy: proves nothing is hard-coded. */
export function plumberBusiness() {
  return business({
    id: 'copper-pipe',
    name: 'Copper Pipe Plumbing',
    category: 'Plumber',
    description: 'Licensed plumbers for homes and small shops: leaks, water heaters and drains.',
    url: 'https://copper-pipe.example',
    telephone: '+1-555-0199',
    email: 'jobs@copper-pipe.example',
    address: { street: '88 Foundry Road', locality: 'Millbrook', region: 'WA', postal_code: '98001', country: 'US' },
    hours: [
      { day: 'monday', opens: '07:00', closes: '19:00' },
      { day: 'saturday', opens: '08:00', closes: '12:00' }
    ],
    technicians: [{ name: 'Gaspard Lemieux', role: 'Master plumber', aliases: ['Gus'] }],
    services: [{ id: 'water-heater', name: 'Water Heater Repair', description: null, aliases: ['water heater'] }],
    service_areas: ['Millbrook', 'East Ridge'],
    taxonomy: {
      aspects: [
        { id: 'punctuality', label: 'Punctuality', terms: ['on time', 'late', 'arrived', 'showed up'], negative: ['late'], question: 'Do they show up on time?' },
        { id: 'workmanship', label: 'Workmanship', terms: ['leak', 'fixed', 'repair', 'work'], negative: ['leak'], question: 'Is the work done right?' },
        { id: 'pricing', label: 'Pricing', terms: ['price', 'quote', 'bill'], negative: ['expensive'], negated: 'praise', question: 'Is the price fair?' }
      ],
      turnaround: null,
      staff_question: 'Who does the work?'
    }
  })
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
