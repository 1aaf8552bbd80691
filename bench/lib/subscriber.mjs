// A WebSub subscriber for the fan-out benchmark, in its own process: an HTTPS server on loopback where every path is
// a callback. Verifications are answered with the challenge; deliveries with 204 and counted, per callback too, so a
// callback served twice shows up as a duplicate. GET /__stats reports, GET /__reset starts counting deliveries afresh.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:https'

const [keyFile, certFile] = process.argv.slice(2)
let verifications = 0
let deliveries = 0
let bytes = 0
let first = null
let last = null
/** Deliveries per callback path since the last reset. */
let perCallback = new Map()

const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile), keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === 'GET') {
    const url = new URL(req.url, 'https://x')
    if (url.pathname === '/__stats') return res.end(JSON.stringify({ verifications, deliveries, callbacks: perCallback.size, bytes, first, last }))
    if (url.pathname === '/__reset') {
      deliveries = bytes = 0
      first = last = null
      perCallback = new Map()
      return res.end('{}')
    }
    verifications++
    return res.end(url.searchParams.get('hub.challenge') ?? '')
  }
  req.on('data', (c) => (bytes += c.length))
  req.on('end', () => {
    const now = performance.timeOrigin + performance.now()
    deliveries++
    perCallback.set(req.url, (perCallback.get(req.url) ?? 0) + 1)
    first ??= now
    last = now
    res.writeHead(204).end()
  })
})
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ msg: 'ready', port: server.address().port })))
