import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NGINX, nginxPreamble } from '../../test/helpers/nginx.js'
import type { Running } from './processes.js'

/** Debian's nginx (`apt-get install -y nginx`). */

/** A response captured from the service: `key` is `<path>|<identity or gzip>`, the body base64. */
export interface Captured {
  key: string
  headers: Record<string, string>
  body: string
}

export interface StaticNginxOptions {
  workers: number
  /**
   * tcp_nopush (TCP_CORK with sendfile). Off by default: on, nginx's req/s is about the same but its p99 on large
   * bodies goes to ~40 ms (a corked last segment waits for the client's delayed ACK), which says nothing about the
   * service (../shared/research/stack-measurements.md, section 1).
   */
  nopush?: boolean
  /**
   * sendfile, on by default as in any nginx serving files: the kernel sends the file's pages without copying them
   * through user space, which a Node server writing a Buffer cannot do (one copy per response). Off, to see how much
   * of nginx's lead on large bodies that is.
   */
  sendfile?: boolean
}

/**
 * nginx as a static-file baseline that sends the service's exact bytes and headers: each captured variant is a file
 * (its mtime set to the captured Last-Modified, so nginx's own Last-Modified is the same), Accept-Encoding picks the
 * variant as the service does (gzip when accepted), the other headers (ETag, Cache-Control, Vary, Link, ...) are
 * added as captured, and an If-None-Match equal to the variant's ETag gets 304. nginx's own `etag` is off because it
 * would replace the service's ETag with its own mtime-size tag; the 304 is answered in the rewrite phase, before the
 * file is even opened, which is no slower than nginx's not-modified filter.
 */
export async function startStaticNginx(captured: Captured[], o: StaticNginxOptions): Promise<Running> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} not found: apt-get install -y nginx`)
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'))
  // Started as root, nginx's workers run as an unprivileged user, which must read the files in here.
  chmodSync(dir, 0o755)
  mkdirSync(join(dir, 'files'))
  const port = await freePort()
  const config = staticConfig(captured, { ...o, dir, port })
  writeFileSync(join(dir, 'nginx.conf'), config)
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] })
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM is nginx's fast stop (the master takes its workers down with it).
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const url = `http://127.0.0.1:${port}`
  try {
    await untilAnswers(url, () => child.exitCode !== null)
  } catch (err) {
    await stop()
    throw err
  }
  return { url, child, stop }
}

/** The config, with every file it serves written into `o.dir`. */
function staticConfig(captured: Captured[], o: StaticNginxOptions & { dir: string; port: number }): string {
  const paths = [...new Set(captured.map((c) => c.key.split('|')[0]!))]
  const locations = paths.flatMap((path, i) => [
    // One name per variant: the map below turns Accept-Encoding into the variant's suffix.
    `    location = ${path} { rewrite ^ /__variant/${i}.$variant last; }`,
    ...captured.filter((c) => c.key.startsWith(`${path}|`)).map((c) => variantLocation(c, `${i}.${c.key.split('|')[1]}`, o.dir))
  ])
  return `${nginxPreamble(o.dir, o.workers)}
  sendfile ${o.sendfile === false ? 'off' : 'on'};
  tcp_nopush ${o.nopush ? 'on' : 'off'};
  keepalive_requests 1000000;
  keepalive_timeout 65s;
  open_file_cache max=64 inactive=60s;
  open_file_cache_valid 60s;
  server_tokens off;
  etag off;
  map $http_accept_encoding $variant {
    default identity;
    ~*gzip gzip;
  }
  server {
    listen 127.0.0.1:${o.port};
${locations.join('\n')}
  }
}
`
}

/** Headers nginx writes itself (from the file, the types, the connection), or that belong to one response only. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'last-modified', 'date', 'connection', 'keep-alive', 'transfer-encoding'])

function variantLocation(c: Captured, name: string, dir: string): string {
  const file = join(dir, 'files', name)
  writeFileSync(file, Buffer.from(c.body, 'base64'))
  chmodSync(file, 0o644)
  const lastModified = c.headers['last-modified']
  if (lastModified) utimesSync(file, new Date(lastModified), new Date(lastModified))
  const added = Object.entries(c.headers).filter(([k]) => !OWN_HEADERS.has(k))
  const etag = c.headers.etag
  return `    location = /__variant/${name} {
      internal;
      types { }
      default_type ${quote(c.headers['content-type'] ?? 'application/octet-stream')};
${added.map(([k, v]) => `      add_header ${k} ${quote(v)};`).join('\n')}
${etag ? `      if ($http_if_none_match = ${quote(etag)}) { return 304; }` : ''}
      alias ${file};
    }`
}

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function untilAnswers(url: string, died: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (died()) throw new Error('nginx exited at start (its error log is above)')
    const ok = await new Promise<boolean>((done) => request(url, (res) => done((res.resume(), true))).on('error', () => done(false)).end())
    if (ok) return
    if (Date.now() > deadline) throw new Error('nginx did not answer within 10 s')
    await new Promise((r) => setTimeout(r, 25))
  }
}
