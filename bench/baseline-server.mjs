// The baseline: a plain node:http server answering with precomputed bytes and headers, nothing else.
// Given a JSON file of { key: "<path>|<encoding>", headers, body (base64) }, it serves each path with the variant
// matching Accept-Encoding (gzip or identity) and answers 304 when If-None-Match equals the ETag.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'

const entries = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const byKey = new Map(entries.map((e) => [e.key, { headers: e.headers, body: Buffer.from(e.body, 'base64') }]))

createServer((req, res) => {
  const path = req.url.split('?')[0]
  const enc = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? 'gzip' : 'identity'
  const hit = byKey.get(`${path}|${enc}`) ?? byKey.get(`${path}|identity`)
  if (!hit) {
    res.writeHead(404).end()
    return
  }
  if (req.headers['if-none-match'] === hit.headers.etag) {
    const { 'content-length': _l, 'content-encoding': _e, 'content-type': _t, ...validators } = hit.headers
    res.writeHead(304, validators).end()
    return
  }
  res.writeHead(200, hit.headers).end(hit.body)
}).listen(0, '127.0.0.1', function () {
  console.log(JSON.stringify({ msg: 'ready', port: this.address().port }))
})
