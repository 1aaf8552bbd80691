import { z } from 'zod'
import { HttpUrl, ShortText, Slug, TimeZone, optionalNullable } from './primitives.js'
import { Taxonomy } from './insights.js'

const Names = z.array(ShortText).max(30).default([])

export const Weekday = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
export type Weekday = z.output<typeof Weekday>
const ClockTime = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'must be a time HH:MM')

export const OpeningHours = z.object({ day: Weekday, opens: ClockTime, closes: ClockTime })

/** A staff member. The contract keeps the word "technician" for every trade (for a funeral home: directors, arrangers, celebrants). */
export const Technician = z.object({
  name: ShortText,
  role: optionalNullable(ShortText),
  aliases: Names
})

export const Service = z.object({
  id: Slug,
  name: ShortText,
  description: optionalNullable(z.string().trim().max(2000)),
  aliases: Names
})

export const Address = z.object({
  street: optionalNullable(ShortText),
  locality: optionalNullable(ShortText),
  region: optionalNullable(ShortText),
  postal_code: optionalNullable(z.string().trim().max(20)),
  country: optionalNullable(z.string().trim().max(60))
})

export const Business = z
  .object({
    id: Slug,
    name: ShortText,
    category: optionalNullable(ShortText),
    description: optionalNullable(z.string().trim().max(5000)),
    url: optionalNullable(HttpUrl),
    telephone: optionalNullable(z.string().trim().max(40)),
    email: optionalNullable(z.email()),
    address: Address,
    geo: optionalNullable(z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })),
    hours: z.array(OpeningHours).max(50).default([]),
    time_zone: optionalNullable(TimeZone).describe(
      'IANA time zone of the business ("America/Chicago"): its opening hours, and the day a review imported with a timestamp is dated. Null when not stated.'
    ),
    technicians: z.array(Technician).max(500).default([]),
    services: z.array(Service).max(500).default([]),
    service_areas: Names.pipe(z.array(ShortText).max(500)),
    same_as: z.array(HttpUrl).max(50).default([]),
    taxonomy: optionalNullable(Taxonomy).describe('Aspects to analyse reviews by; null uses the built-in funeral-home taxonomy.')
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>()
    b.services.forEach((s, i) => {
      if (seen.has(s.id)) ctx.addIssue({ code: 'custom', path: ['services', i, 'id'], message: `duplicate service id "${s.id}"` })
      seen.add(s.id)
    })
  })
  .meta({ id: 'Business', description: 'The business whose reviews are published.' })

export type Business = z.output<typeof Business>
export type Technician = z.output<typeof Technician>
export type Service = z.output<typeof Service>
