/**
 * The one stylesheet, inlined in every page: system fonts, no images, no scripts. Calm colours with AA contrast,
 * one column that reads on a phone and widens on a desktop.
 */
export const STYLES = `
:root{--ink:#23211e;--muted:#58544d;--line:#ddd6cb;--paper:#fbf9f6;--card:#fff;--accent:#2f5566;--accent-soft:#e4edf0;--pos:#3a6b4f;--neu:#8a7d62;--neg:#9a4a3c;--star:#8a6212}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--paper);color:var(--ink);font:1.0625rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent);text-underline-offset:.15em}
a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem;z-index:1}
header.site,footer.site{background:var(--card);border-bottom:1px solid var(--line)}
footer.site{border-top:1px solid var(--line);border-bottom:0;margin-top:3rem;font-size:.95rem;color:var(--muted)}
.wrap{max-width:52rem;margin:0 auto;padding:0 1.1rem}
header.site .wrap{display:flex;flex-wrap:wrap;gap:.4rem 1.5rem;align-items:baseline;justify-content:space-between;padding-top:.9rem;padding-bottom:.9rem}
.brand{font-weight:650;font-size:1.1rem;color:var(--ink);text-decoration:none}
nav.site ul{display:flex;gap:1.1rem;list-style:none;margin:0;padding:0}
h1{font-size:1.9rem;line-height:1.25;margin:1.6rem 0 .4rem;font-weight:600}
h2{font-size:1.35rem;margin:2.4rem 0 .8rem;font-weight:600}
h3{font-size:1.1rem;margin:1.2rem 0 .3rem}
.lede{color:var(--muted);margin-top:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem 1.1rem;margin:0 0 1rem}
.card>h2:first-child{margin-top:0}
address{font-style:normal}
.grid{display:grid;gap:1rem;align-items:start}
@media(min-width:44rem){.grid.two{grid-template-columns:1fr 1fr}}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
table.hours{border-collapse:collapse}table.hours td,table.hours th{padding:.1rem 1rem .1rem 0;text-align:left;font-weight:normal}
.rating{display:flex;align-items:baseline;gap:.6rem;flex-wrap:wrap}
.rating .value{font-size:2.4rem;font-weight:600;line-height:1}
.stars{color:var(--star);letter-spacing:.1em}
svg.chart{width:100%;height:auto;display:block}
svg.chart text{font:14px system-ui,sans-serif;fill:var(--ink)}
.legend{display:flex;gap:1rem;flex-wrap:wrap;font-size:.9rem;color:var(--muted);margin:.3rem 0 0;padding:0;list-style:none}
.key{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.3em;vertical-align:-.05em}
.phrases{font-size:.95rem;color:var(--muted);margin:.2rem 0 .9rem}
article.review header{display:flex;flex-wrap:wrap;gap:.2rem .8rem;align-items:baseline}
article.review .who{font-weight:600}
article.review .meta{color:var(--muted);font-size:.93rem}
article.review p{margin:.5rem 0}
.reply{border-left:3px solid var(--accent-soft);padding:.1rem 0 .1rem .9rem;margin:.7rem 0 0;color:var(--muted)}
.reply strong{color:var(--ink);font-weight:600}
.quiet{color:var(--muted)}
details.faq{border-bottom:1px solid var(--line);padding:.6rem 0}
details.faq summary{cursor:pointer;font-weight:600}
.cites{font-size:.93rem;color:var(--muted)}
blockquote.pull{margin:1.2rem 0;padding:0 0 0 1rem;border-left:4px solid var(--accent);font-size:1.15rem}
.pager{display:flex;justify-content:space-between;gap:1rem;margin:1.5rem 0}
pre,code{font:.9rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f2efe9;border:1px solid var(--line);border-radius:8px;padding:.8rem;overflow-x:auto}
svg.chart{max-width:34rem}
svg.chart .track{fill:#efe9df}svg.chart .bar{fill:var(--star)}svg.chart .positive{fill:var(--pos)}svg.chart .neutral{fill:var(--neu)}svg.chart .negative{fill:var(--neg)}
svg.chart .num{fill:var(--muted)}
.key.positive{background:var(--pos)}.key.neutral{background:var(--neu)}.key.negative{background:var(--neg)}
.avatar{display:inline-grid;place-items:center;width:2.2rem;height:2.2rem;border-radius:50%;background:var(--accent-soft);color:var(--accent);font-weight:650;font-size:.95rem;flex:none}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
/* The developer guide and API reference (/developers, /developers/api): reference tables whose long addresses and
   names break anywhere rather than widen the page on a phone, and room for Swagger UI's two-column layout. */
table.docs{border-collapse:collapse;width:100%;margin:0 0 1rem;font-size:.95rem}
table.docs th,table.docs td{text-align:left;vertical-align:top;padding:.4rem .8rem .4rem 0;border-bottom:1px solid var(--line)}
table.docs thead th{font-weight:600;color:var(--muted)}table.docs tbody th{font-weight:normal}
table.docs code,p code,li code{overflow-wrap:anywhere}
body:has(#swagger-ui) .wrap{max-width:80rem}
iframe.widget{width:100%;max-width:32rem;height:44rem;border:1px solid var(--line);border-radius:10px}
#swagger-ui .info .title pre{background:none;border:0}
`
