import { renderToString } from 'preact-render-to-string'
import { PATHS } from './site.js'
import { STYLES } from './styles.js'

/** A plain error page for people: what went wrong, and the way back. Knows nothing of the data, so it cannot fail. */
export function renderErrorPage(status: number, message: string, details: readonly string[] = []): string {
  const title = status === 404 ? 'Page not found' : status < 500 ? 'This request cannot be answered' : 'Something went wrong'
  return `<!doctype html>${renderToString(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLES }} />
      </head>
      <body>
        <main class="wrap">
          <h1>{title}</h1>
          <p>{message}</p>
          {details.length > 0 && (
            <ul>
              {details.map((d) => (
                <li>{d}</li>
              ))}
            </ul>
          )}
          <p>
            <a href={PATHS.home}>Go to the front page</a> or <a href={PATHS.reviews}>read all reviews</a>.
          </p>
        </main>
      </body>
    </html>
  )}`
}
