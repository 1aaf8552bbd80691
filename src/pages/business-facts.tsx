import type { Business } from '../domain/index.js'
import { clock, dayName } from './format.js'

/** Address, contact, hours and service areas, exactly as the business file gives them. */
export function BusinessFacts({ business }: { business: Business }) {
  const a = business.address
  const cityLine = [a.locality, [a.region, a.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ')
  const addressLines = [a.street, cityLine, a.country].filter(Boolean)
  return (
    <section class="card" aria-labelledby="contact">
      <h2 id="contact">Contact and hours</h2>
      <dl class="facts">
        {addressLines.length > 0 && (
          <>
            <dt>Address</dt>
            <dd>
              <address>
                {addressLines.map((line, i) => (
                  <>
                    {i > 0 && <br />}
                    {line}
                  </>
                ))}
              </address>
            </dd>
          </>
        )}
        {business.telephone && (
          <>
            <dt>Phone</dt>
            <dd>
              <a href={`tel:${business.telephone.replace(/[^+\d]/g, '')}`}>{business.telephone}</a>
            </dd>
          </>
        )}
        {business.email && (
          <>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${business.email}`}>{business.email}</a>
            </dd>
          </>
        )}
        {business.url && (
          <>
            <dt>Website</dt>
            <dd>
              <a href={business.url} rel="external">
                {new URL(business.url).host}
              </a>
            </dd>
          </>
        )}
        {business.service_areas.length > 0 && (
          <>
            <dt>Serving</dt>
            <dd>{business.service_areas.join(', ')}</dd>
          </>
        )}
      </dl>
      {business.hours.length > 0 && <Hours business={business} />}
    </section>
  )
}

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

function Hours({ business }: { business: Business }) {
  return (
    <table class="hours">
      <caption class="visually-hidden">Opening hours</caption>
      <tbody>
        {WEEK.map((day) => {
          const spans = business.hours.filter((h) => h.day === day)
          return (
            <tr>
              <th scope="row">{dayName(day)}</th>
              <td>{spans.length ? spans.map((h) => `${clock(h.opens)} – ${clock(h.closes)}`).join(', ') : 'Closed'}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
