import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Business } from '../domain/index.js'
import { buildMentionIndex } from './index.js'

const business = Business.parse({
  id: 'test-home',
  name: 'Hollis & Vane Funeral Home',
  address: {},
  technicians: [
    { name: 'Margaret Hollis', role: 'Director', aliases: ['Peggy', 'Mrs. Hollis'] },
    { name: 'Dimitri Vane', role: 'Embalmer', aliases: ['Dimi'] },
    { name: 'Rosalind Achebe', role: 'Arranger', aliases: ['Roz'] },
    { name: 'Will Turner', role: 'Driver', aliases: [] },
    { name: 'Anna Berg', role: 'Florist', aliases: [] },
    { name: 'Anna Kowalski', role: 'Office', aliases: [] }
  ],
  services: [
    { id: 'direct-cremation', name: 'Direct Cremation', aliases: ['simple cremation'] },
    { id: 'graveside-service', name: 'Graveside Service', aliases: ['graveside'] },
    { id: 'memorial-service', name: 'Memorial Service', aliases: ['celebration of life'] }
  ],
  service_areas: ["Sutter's Bend", 'North Ashford', 'Ashford Falls']
})
const m = buildMentionIndex(business)
const staff = (text: string) => m.detect(text).technicians

describe('staff mentions', () => {
  test('full name, alias, unambiguous first name, title + surname', () => {
    assert.deepEqual(staff('Margaret Hollis called.'), ['Margaret Hollis'])
    assert.deepEqual(staff('Peggy called.'), ['Margaret Hollis'])
    assert.deepEqual(staff('Rosalind called, then Dimi.'), ['Dimitri Vane', 'Rosalind Achebe'])
    assert.deepEqual(staff('Mr. Vane and Ms Achebe were there.'), ['Dimitri Vane', 'Rosalind Achebe'])
  })
  test('a surname alone, or the business name, is not a staff mention', () => {
    assert.deepEqual(staff('Hollis & Vane handled everything.'), [])
    assert.deepEqual(staff('We chose Hollis over the chain.'), [])
  })
  test('a first name two staff share only counts with the surname', () => {
    assert.deepEqual(staff('Anna was kind.'), [])
    assert.deepEqual(staff('Anna Berg arranged flowers.'), ['Anna Berg'])
  })
  test('misspellings: edit distance and sound-alike', () => {
    for (const text of ['Margret helped', 'Dimitry was calm', 'Demetri was calm', 'Rosalyn explained', 'Mrs. Hollace phoned']) {
      assert.equal(staff(text).length, 1, text)
    }
  })
  test('ordinary words that sound like the start of a name are not misspellings of it', () => {
    for (const text of ['Dimensions were fine.', 'Rose petals everywhere.', 'Roses, Roasted, Period.', 'Margin was thin.', 'Rosary at noon.']) {
      assert.deepEqual(staff(text), [], text)
    }
  })
  test('pet forms of a name or an alias', () => {
    assert.deepEqual(staff('Rozzie was lovely.'), ['Rosalind Achebe'])
  })
  test('misspellings in text written without capitals', () => {
    assert.deepEqual(staff('dimitry did his hair just right'), ['Dimitri Vane'])
    assert.deepEqual(staff('Then dimitry came'), [], 'with capitals elsewhere, a lowercase word is not a name')
  })
  test('never inside another word; possessives count', () => {
    assert.deepEqual(staff('The frozen ground delayed the burial.'), [])
    assert.deepEqual(staff('Peggys kindness, Roz’s patience'), ['Margaret Hollis', 'Rosalind Achebe'])
  })
  test('a name that is also a word needs its capital', () => {
    assert.deepEqual(staff('We will be back.'), [])
    assert.deepEqual(staff('Will drove the hearse.'), ['Will Turner'])
    assert.deepEqual(staff('WILL drove.'), ['Will Turner'])
  })
  test('other people named in a review are not staff', () => {
    assert.deepEqual(staff('My mother Dorothy and Pastor Jim from our church spoke.'), [])
  })
})

describe('service and area mentions', () => {
  test('names, aliases, ids and plurals', () => {
    assert.deepEqual(m.detect('Two direct cremations and a celebration of life.').services, ['direct-cremation', 'memorial-service'])
    assert.deepEqual(m.detect('The graveside was cold.').services, ['graveside-service'])
    assert.deepEqual(m.detect('a simple cremation').services, ['direct-cremation'])
    assert.deepEqual(m.detect('The service was lovely.').services, [])
  })
  test('areas with or without the apostrophe; the longest name wins', () => {
    assert.deepEqual(m.detect('We live in Sutters Bend.').service_areas, ["Sutter's Bend"])
    assert.deepEqual(m.detect('From Sutter’s Bend to North Ashford.').service_areas, ["Sutter's Bend", 'North Ashford'])
    assert.deepEqual(m.detect('Ashford Falls').service_areas, ['Ashford Falls'])
  })
  test('nothing for rating-only reviews', () => {
    assert.deepEqual(m.detect(null), { technicians: [], services: [], service_areas: [] })
  })
})

describe('services named by their kind', () => {
  const kinds = buildMentionIndex(
    Business.parse({
      id: 'kinds',
      name: 'Kinds',
      address: {},
      services: [
        { id: 'direct-cremation', name: 'Direct Cremation', aliases: [] },
        { id: 'memorial-service', name: 'Memorial Service', aliases: [] },
        { id: 'graveside-service', name: 'Graveside Service', aliases: [] },
        { id: 'veterans-honors', name: 'Veterans Honors', aliases: [] },
        { id: 'ash-scattering', name: 'Ash Scattering', aliases: [] },
        { id: 'pre-planning', name: 'Pre-Planning', aliases: [] }
      ]
    })
  )
  const services = (text: string) => kinds.detect(text).services
  test('a phrase of a kind names the one service of that kind', () => {
    assert.deepEqual(services('The flag ceremony left no dry eye.'), ['veterans-honors'])
    assert.deepEqual(services('Dad pre-paid everything in 2006.'), ['pre-planning'])
    assert.deepEqual(services('The service at the cemetery was short.'), ['graveside-service'])
    assert.deepEqual(services('Nothing fancy, just a cremation.'), ['direct-cremation'])
  })
  test('a verb of a kind counts only with what it acts on: scattering ashes, not a scattered family', () => {
    assert.deepEqual(services("We scattered Mum's ashes off the point."), ['ash-scattering'])
    assert.deepEqual(services('Our family is scattered across three states.'), [])
  })
  test('words that are part of several services name none: the cremation, the burial, the service', () => {
    assert.deepEqual(services('Dec handled the cremation and the burial went fine. The service was lovely.'), [])
  })
  test('a kind no service of the business has names nothing', () => {
    assert.deepEqual(services('The livestream froze.'), [])
  })
  test('a generic word names a service only when that is the service\'s whole name: "Burial", not "Green Burial"', () => {
    const only = (name: string) => buildMentionIndex(Business.parse({ id: 'b', name: 'B', address: {}, services: [{ id: 's', name, aliases: [] }] }))
    assert.deepEqual(only('Burial').detect("Dad's burial was on Friday.").services, ['s'])
    assert.deepEqual(only('Green Burial').detect("Dad's burial was on Friday.").services, [])
  })
})

describe('resolving search filter values', () => {
  test('technicians by name, alias, first name, unique surname or misspelling, in any case', () => {
    for (const v of ['peggy', 'MARGARET HOLLIS', 'margaret', 'Hollis', 'margret', 'mrs. hollis']) assert.equal(m.resolveTechnician(v), 'Margaret Hollis', v)
    assert.equal(m.resolveTechnician('will'), 'Will Turner')
    assert.equal(m.resolveTechnician('anna'), null, 'ambiguous first name')
    assert.equal(m.resolveTechnician('nobody'), null)
  })
  test('services by id, name or alias', () => {
    for (const v of ['direct-cremation', 'Direct Cremation', 'SIMPLE CREMATION']) assert.equal(m.resolveService(v), 'direct-cremation', v)
    assert.equal(m.resolveService('cremation'), null)
  })
})
