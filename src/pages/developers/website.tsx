import { BadgeParams, EmbedParams } from '../../domain/index.js'
import { escapeXml } from '../../xml/index.js'
import { absolute, PATHS, type SiteData } from '../site.js'
import { Code, ParameterTable, Section } from './blocks.js'
import type { DeveloperDocsFacts } from './facts.js'

/** The snippet's frame: three reviews fit this height from 320 px wide (see the browser test's screenshots). */
const WIDGET_STYLE = 'width:100%;max-width:32rem;height:44rem;border:0'

/** "On your website": the badge and the widget, with snippets to paste, built from BASE_URL, and a live preview of each. */
export function Website({ site, facts }: { site: SiteData; facts: DeveloperDocsFacts }) {
  const { business, urls } = site
  const badge = absolute(urls, PATHS.badge)
  const embed = absolute(urls, PATHS.embed)
  const alt = `${business.name}: rating from verified reviews`
  const title = `Reviews of ${business.name}`
  return (
    <Section id="website">
      <p>
        Two ways to show these reviews on {business.name}'s own site, or any other. Both are made from the same data as everything here and change when it
        does; neither runs script or lets the visitor's browser contact anyone else.
      </p>
      <h3>Rating badge</h3>
      <p>
        <a href={PATHS.home}>
          <img src={PATHS.badge} height={28} alt={alt} />
        </a>
      </p>
      <p>An SVG image of the rating and the number of reviews, a few hundred bytes. Link it to this site:</p>
      <Code>{`<a href="${urls.base}/"><img src="${badge}" height="28" alt="${escapeXml(alt)}"></a>`}</Code>
      <p>
        On a dark page, <code>{`${badge}?theme=dark`}</code>; <code>?theme=auto</code> follows the reader's light or dark setting.
      </p>
      <ParameterTable schema={BadgeParams} />
      <h3>Reviews widget</h3>
      <p>
        A small page made for an <code>&lt;iframe&gt;</code>: the rating and the newest reviews, each linking to its page here in a new tab. It reads well
        from 320 pixels wide. Paste:
      </p>
      <Code>{`<iframe src="${embed}?limit=3" title="${escapeXml(title)}" loading="lazy" style="${WIDGET_STYLE}"></iframe>`}</Code>
      <ParameterTable schema={EmbedParams} />
      <p>
        {facts.embedAllowedOrigins.length ? (
          <>
            This service lets only these sites show the widget in a frame: {facts.embedAllowedOrigins.map((o) => <code>{o}</code>)} (and itself). Browsers refuse it
            anywhere else.
          </>
        ) : (
          <>
            Any site may show the widget: the reviews are public and the widget has nothing to click but links. The operator can limit it to named sites with{' '}
            <code>EMBED_ALLOWED_ORIGINS</code>.
          </>
        )}{' '}
        With a wrong parameter the frame shows what is wrong.
      </p>
      <p>As it looks with the snippet above:</p>
      {/* The page's policy allows no style attributes: the preview is sized by the site's sheet (iframe.widget). */}
      <iframe class="widget" src={`${PATHS.embed}?limit=3`} title={title} loading="lazy" />
    </Section>
  )
}
