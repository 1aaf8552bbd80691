import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { get } from './http.js'

/** Debian's nginx; scripts/ensure-test-tools.sh installs it. */
export const NGINX = '/usr/sbin/nginx'

export interface Balancer {
  /** http://127.0.0.1:<port>, the address clients (and BASE_URL) use. */
  url: string
  port: number
  config: string
  /** What nginx wrote to its error log so far (upstream failures show up here). */
  errors(): string
  stop(): Promise<void>
}

/** A port free right now on loopback (the caller binds it soon after; start retries if another process took it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * The load balancer of the README's "Running several nodes": round robin over the nodes, no session affinity (any
 * node serves any request, MCP sessions included), HTTP/1.1 with kept-alive connections to the nodes, and no
 * buffering on /mcp so a notification stream reaches the client as it is written. `dir` holds everything nginx
 * writes (temporary files, pid, error log), so nothing outside it is touched.
 */
/**
 * The start of a config that runs in the foreground and writes only inside `dir` (pid, error log, temporary files),
 * up to the open `http {` block.
 */
export function nginxPreamble(dir: string, workers: number): string {
  return `daemon off;
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;`
}

export function nginxConfig(o: { listenPort: number; upstreamPorts: number[]; dir: string }): string {
  const servers = o.upstreamPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n')
  return `${nginxPreamble(o.dir, 1)}

  upstream reviews {
${servers}
    keepalive 16;
    # Below Node's 5 s keep-alive timeout, so nginx never reuses a connection the node is closing.
    keepalive_timeout 4s;
  }

  server {
    listen 127.0.0.1:${o.listenPort};

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;

    location / {
      proxy_pass http://reviews;
    }

    # MCP: responses may be SSE streams (GET /mcp stays open for notifications).
    location = /mcp {
      proxy_pass http://reviews;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`
}

/**
 * Starts nginx in the foreground (`daemon off`) with a generated config balancing over `upstreamPorts`, and waits
 * until it answers. The nodes need not be up yet: `listenPort` is chosen first so BASE_URL can name it.
 */
export async function startNginx(listenPort: number, upstreamPorts: number[]): Promise<Balancer> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} not found: run scripts/ensure-test-tools.sh`)
  const dir = mkdtempSync(join(tmpdir(), 'reviews-nginx-'))
  // Run as root, nginx's workers drop to an unprivileged user, which must reach the temporary-file paths in here.
  chmodSync(dir, 0o755)
  const config = nginxConfig({ listenPort, upstreamPorts, dir })
  writeFileSync(join(dir, 'nginx.conf'), config)
  // -e: the error log before the config is read (Debian's default is a file under /var/log).
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => (stderr += c))
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)))
  const errors = () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '')
  const url = `http://127.0.0.1:${listenPort}`
  try {
    await untilListening(url, child, () => `${stderr}${errors()}`)
  } catch (err) {
    await stop(child, exited)
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
  return {
    url,
    port: listenPort,
    config,
    errors,
    stop: async () => {
      await stop(child, exited)
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Polls the balancer's own port until nginx accepts connections (any HTTP answer will do: the nodes may be down). */
async function untilListening(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${log()}`)
    try {
      await get(`${url}/healthz`)
      return
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not listen within 10 s: ${log()}`)
      await new Promise((ok) => setTimeout(ok, 25))
    }
  }
}

/** SIGTERM is nginx's fast stop (a graceful SIGQUIT would wait for open streams); SIGKILL if it still runs after 3 s. */
async function stop(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
  await exited
  clearTimeout(timer)
}
