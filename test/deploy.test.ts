import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, test } from 'node:test'
import { promisify } from 'node:util'
import { parser } from '@prometheus-io/lezer-promql'
import ipaddr from 'ipaddr.js'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { parse as parseYaml } from 'yaml'
import { CONFIG_VARIABLES, loadConfig } from '../src/config/index.js'
import { DEMO_FILE } from '../src/ingest/index.js'
import { Metrics } from '../src/metrics/index.js'
import { freePort, NGINX } from './helpers/nginx.js'
import { startTestService } from './helpers/service.js'
import { runTool } from './helpers/tools.js'

/**
 * The deployment files under deploy/, checked as far as this machine can. No Docker engine runs here: the Dockerfile
 * and compose.yaml are read (and the image's HEALTHCHECK command run against a real node), never built or started.
 * nginx -t, systemd-analyze and openssl are the real tools; a missing one fails its test (runTool throws).
 */

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
/** systemd's own, from the systemd package (in the machine's base image). */
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze'

const tempDirs: string[] = []
after(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reviews-deploy-'))
  tempDirs.push(dir)
  return dir
}

/** Only names the service reads (or NODE_ENV), with values that pass the check the service runs at start. */
function assertValidSettings(env: Record<string, string>, where: string): void {
  for (const name of Object.keys(env)) assert.ok(CONFIG_VARIABLES.includes(name) || name === 'NODE_ENV', `${where}: ${name} is not a configuration variable`)
  assert.doesNotThrow(() => loadConfig(env), where)
}

// --- Dockerfile -------------------------------------------------------------------------------------------------

interface Stage {
  name: string | undefined
  instructions: { op: string; args: string }[]
}

/** Instructions by stage: comment lines dropped (inside a continuation too), continuations joined. */
function dockerStages(text: string): Stage[] {
  const lines = text.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n').replace(/\\\n/g, ' ').split('\n')
  const stages: Stage[] = []
  for (const line of lines.map((l) => l.trim()).filter(Boolean)) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!
    if (op!.toUpperCase() === 'FROM') stages.push({ name: /\sAS\s+(\S+)$/i.exec(args!)?.[1], instructions: [] })
    else stages.at(-1)?.instructions.push({ op: op!.toUpperCase(), args: args! })
  }
  return stages
}

const all = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args)
const one = (stage: Stage, op: string) => {
  const found = all(stage, op)
  assert.equal(found.length, 1, `one ${op} in stage ${stage.name}`)
  return found[0]!
}
/** COPY's flags (--from=...) and its sources and destination. */
function copyArgs(args: string): { from: string | undefined; sources: string[]; dest: string } {
  const words = args.split(/\s+/)
  const paths = words.filter((w) => !w.startsWith('--'))
  return { from: words.find((w) => w.startsWith('--from='))?.slice('--from='.length), sources: paths.slice(0, -1), dest: paths.at(-1)! }
}

const stages = dockerStages(read('deploy/Dockerfile'))
const runtime = stages.at(-1)!
const imageEnv = Object.fromEntries(all(runtime, 'ENV').flatMap((args) => [...args.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])))

test('Dockerfile: a build stage and a runtime stage that runs `node dist/cli.js serve` as a user other than root', () => {
  assert.ok(stages.length >= 2, 'multi-stage')
  assert.deepEqual(JSON.parse(one(runtime, 'CMD')), ['node', 'dist/cli.js', 'serve'])
  const user = one(runtime, 'USER').split(':')[0]!
  assert.ok(!['root', '0'].includes(user), `USER ${user}`)
  assert.equal(one(runtime, 'WORKDIR'), '/app')
  assert.equal(one(runtime, 'VOLUME'), '/app/var')
  assert.deepEqual(one(runtime, 'EXPOSE').split(/\s+/), ['8080', '9464'])
  assert.equal(one(runtime, 'STOPSIGNAL'), 'SIGTERM')
})

test('Dockerfile: ENV names are configuration variables (or NODE_ENV) and their values pass the configuration check', () => {
  assert.equal(imageEnv.DATABASE_URL, 'sqlite:/app/var/reviews.db', 'the database on the volume')
  assert.equal(imageEnv.METRICS_HOST, '0.0.0.0', 'metrics reachable by a scraper on the container network')
  assertValidSettings(imageEnv, 'Dockerfile')
})

test('Dockerfile: the runtime stage gets dist/, the demo data, pruned node_modules and package.json, nothing else', () => {
  const copies = all(runtime, 'COPY').map(copyArgs)
  const build = stages.find((s) => s.name !== undefined && copies.some((c) => c.from === s.name))
  assert.ok(build, 'copies from a named build stage')
  const fromBuild = copies.filter((c) => c.from === build.name).flatMap((c) => c.sources)
  assert.deepEqual(fromBuild.sort(), ['/app/dist', '/app/node_modules', '/app/package.json'])
  // The devDependencies are gone from the node_modules copied: pruned after the build, in the same stage.
  const runs = all(build, 'RUN').join('\n')
  assert.match(runs, /npm run build[\s\S]*npm prune --omit=dev/)
  // From the context, only the demo data: where dist/ingest reads it (../../data/demo from /app/dist/ingest).
  const fromContext = copies.filter((c) => c.from === undefined)
  assert.deepEqual(fromContext.map((c) => [c.sources, c.dest]), [[['data/demo'], './data/demo']])
  assert.ok(relative(ROOT, DEMO_FILE).startsWith('data/demo/'), DEMO_FILE)
})

/** Docker's .dockerignore rules, simplified: later lines win, `!` lets a path back in, `*` and `**` as globs. */
function dockerignore(text: string): (path: string) => boolean {
  const glob = (p: string) =>
    new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '(.*/)?')}(/.*)?$`)
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({ keep: l.startsWith('!'), re: glob(l.replace(/^!/, '').replace(/\/$/, '')) }))
  return (path) => rules.reduce((sent, r) => (r.re.test(path) ? r.keep : sent), true)
}

function filesUnder(path: string): string[] {
  if (!statSync(join(ROOT, path)).isDirectory()) return [path]
  return readdirSync(join(ROOT, path)).flatMap((name) => filesUnder(`${path}/${name}`))
}

test('Dockerfile: every file it copies from the context exists and Dockerfile.dockerignore lets it through (and no secrets or builds)', () => {
  const sent = dockerignore(read('deploy/Dockerfile.dockerignore'))
  const sources = stages.flatMap((s) => all(s, 'COPY').map(copyArgs)).filter((c) => c.from === undefined).flatMap((c) => c.sources)
  assert.ok(sources.includes('src') && sources.includes('package-lock.json'))
  for (const source of sources) {
    assert.ok(existsSync(join(ROOT, source)), `${source} exists`)
    for (const file of filesUnder(source).filter((f) => !f.endsWith('.test.ts'))) assert.ok(sent(file), `${file} is in the build context`)
  }
  for (const path of ['node_modules/zod/package.json', 'var/reviews.db', 'dist/cli.js', '.env', '.git/HEAD', 'test/deploy.test.ts', 'src/config/config.test.ts']) {
    assert.ok(!sent(path), `${path} is kept out of the build context`)
  }
})

test('Dockerfile: the HEALTHCHECK command exits 0 when /readyz answers 200 and 1 when nothing listens', async () => {
  const args = one(runtime, 'HEALTHCHECK')
  assert.match(args, /--interval=\S+ --timeout=\S+ --start-period=\S+/)
  const command = JSON.parse(args.slice(args.indexOf('CMD ') + 4)) as string[]
  assert.equal(command[0], 'node')
  assert.match(command.join(' '), /\/readyz/)
  // Asynchronously: the service answers from this process's event loop.
  const run = (port: number) =>
    promisify(execFile)(process.execPath, command.slice(1), { env: { ...process.env, PORT: String(port) }, timeout: 10_000 }).then(
      () => 0,
      (e: { code?: number }) => e.code
    )
  const s = await startTestService()
  try {
    assert.equal(await run(Number(new URL(s.url).port)), 0)
  } finally {
    await s.stop()
  }
  assert.equal(await run(await freePort()), 1)
})

// --- compose.yaml ----------------------------------------------------------------------------------------------

interface Service {
  image?: string
  build?: { context: string; dockerfile: string }
  profiles?: string[]
  ports?: string[]
  environment?: Record<string, string | number>
  volumes?: string[]
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  stop_grace_period?: string
  networks?: string[] | Record<string, { ipv4_address?: string }>
}
interface Compose {
  services: Record<string, Service>
  volumes: Record<string, unknown>
  networks: Record<string, { ipam: { config: { subnet: string }[] } }>
}

const compose = parseYaml(read('deploy/compose.yaml')) as Compose
const services = compose.services
/** `${NAME:-default}` as Compose fills it in when NAME is not set. */
const interpolated = (v: string | number) => String(v).replace(/\$\{\w+(?::?-([^}]*))?\}/g, (_, fallback: string | undefined) => fallback ?? '')
const environment = (s: Service) => Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolated(v)]))
const NODES = ['node1', 'node2']

test('compose.yaml: the one-node service by default; PostgreSQL, two nodes and nginx in the cluster profile', () => {
  assert.deepEqual(Object.keys(services).sort(), ['nginx', 'node1', 'node2', 'postgres', 'reviews'])
  assert.equal(services.reviews!.profiles, undefined)
  for (const name of ['postgres', 'nginx', ...NODES]) assert.deepEqual(services[name]!.profiles, ['cluster'], name)
  for (const name of ['reviews', ...NODES]) {
    const build = services[name]!.build!
    assert.equal(join(ROOT, 'deploy', build.context), ROOT, `${name} builds from the repository root`)
    assert.equal(build.dockerfile, 'deploy/Dockerfile')
  }
  assert.deepEqual(services.reviews!.ports, ['8080:8080'])
  assert.deepEqual(services.nginx!.ports, ['8081:80'])
  assert.ok(Object.values(services).every((s) => !s.ports?.some((p) => p.endsWith(':9464'))), 'the metrics port is never published')
  assert.match(services.postgres!.image!, /^postgres:\d+/)
  assert.match(services.postgres!.healthcheck!.test.join(' '), /pg_isready/)
  for (const node of NODES) assert.deepEqual(services[node]!.depends_on, { postgres: { condition: 'service_healthy' } })
  // The nodes' health check is the image's HEALTHCHECK on /readyz.
  assert.deepEqual(services.nginx!.depends_on, { node1: { condition: 'service_healthy' }, node2: { condition: 'service_healthy' } })
})

test('compose.yaml: every environment name is a configuration variable and each service passes the configuration check', () => {
  for (const [name, service] of Object.entries(services)) {
    if (name === 'postgres') assert.ok(Object.keys(service.environment!).every((k) => k.startsWith('POSTGRES_')), 'the postgres image reads POSTGRES_*')
    else if (name !== 'nginx') assertValidSettings({ ...imageEnv, ...environment(service) }, `compose service ${name}`)
    else assert.equal(service.environment, undefined)
  }
})

test('compose.yaml: the nodes share BASE_URL and the database, trust only nginx, and nginx balances over exactly them', () => {
  const [first, second] = NODES.map((n) => environment(services[n]!))
  assert.deepEqual(first, second, 'identical nodes')
  assert.equal(first!.BASE_URL, 'http://localhost:8081', "the balancer's address")
  const pg = environment(services.postgres!)
  const db = new URL(first!.DATABASE_URL!)
  assert.deepEqual([db.protocol, db.hostname, db.username, db.password, db.pathname], ['postgres:', 'postgres', pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, `/${pg.POSTGRES_DB}`])
  const nginxAddress = (services.nginx!.networks as Record<string, { ipv4_address: string }>).cluster!.ipv4_address
  assert.equal(first!.TRUST_PROXY, nginxAddress)
  const subnet = compose.networks.cluster!.ipam.config[0]!.subnet
  assert.ok(ipaddr.parse(nginxAddress).match(ipaddr.parseCIDR(subnet)), `${nginxAddress} in ${subnet}`)
  // Docker waits stop_grace_period before SIGKILL: longer than the grace and the 3 s drain.
  assert.ok(Number(first!.SHUTDOWN_GRACE_MS) > 0)
  for (const node of NODES) assert.ok(Number.parseInt(services[node]!.stop_grace_period!) * 1000 > Number(first!.SHUTDOWN_GRACE_MS) + 3000, node)
  const upstream = /upstream reviews \{([^}]*)\}/.exec(read('deploy/nginx/compose-balancer.conf'))![1]!
  assert.deepEqual([...upstream.matchAll(/^\s*server (\S+);/gm)].map((m) => m[1]), NODES.map((n) => `${n}:8080`))
})

test('compose.yaml: named volumes are declared and bind-mounted files exist', () => {
  for (const [name, service] of Object.entries(services)) {
    for (const volume of service.volumes ?? []) {
      const source = volume.split(':')[0]!
      if (source.startsWith('.')) assert.ok(existsSync(join(ROOT, 'deploy', source)), `${name}: ${source}`)
      else assert.ok(source in compose.volumes, `${name}: volume ${source} declared`)
    }
  }
  assert.deepEqual(services.reviews!.volumes, ['reviews-data:/app/var'])
  assert.equal(existsSync(join(ROOT, 'deploy', services.reviews!.build!.context, services.reviews!.build!.dockerfile)), true)
})

// --- nginx -----------------------------------------------------------------------------------------------------

/** `nginx -t` on a main config whose http {} block holds `http`; everything nginx writes stays in `dir`. */
function nginxTest(dir: string, http: string): void {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`).join('\n')
  const conf = `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n${temp}\n${http}\n}\n`
  writeFileSync(join(dir, 'nginx.conf'), conf)
  const r = runTool(NGINX, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')])
  assert.equal(r.status, 0, r.output)
  assert.match(r.output, /test is successful/)
  assert.doesNotMatch(r.output, /\[(warn|emerg|alert)\]/, r.output)
}

test('nginx TLS site: nginx -t accepts it with a real (self-signed) certificate', () => {
  const dir = tempDir()
  const [cert, key] = [join(dir, 'fullchain.pem'), join(dir, 'privkey.pem')]
  const openssl = runTool('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=reviews.example.org'])
  assert.equal(openssl.status, 0, openssl.output)
  const site = read('deploy/nginx/reviews-tls.conf')
  const certificates = /ssl_certificate (\S+);[\s\S]*ssl_certificate_key (\S+);/.exec(site)!
  const local = site.replace(certificates[1]!, cert).replace(certificates[2]!, key)
  writeFileSync(join(dir, 'site.conf'), local)
  nginxTest(dir, `  include ${join(dir, 'site.conf')};`)
})

test('nginx TLS site: HTTP redirects to HTTPS, HSTS, forwarded headers, unbuffered /mcp, no metrics', () => {
  const site = read('deploy/nginx/reviews-tls.conf')
  assert.match(site, /listen 80;[\s\S]*return 301 https:\/\/\$host\$request_uri;/)
  assert.match(site, /listen 443 ssl http2;/)
  assert.match(site, /ssl_protocols TLSv1\.2 TLSv1\.3;/)
  assert.match(site, /add_header Strict-Transport-Security "max-age=\d+[^"]*" always;/)
  assert.match(site, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/)
  assert.match(site, /proxy_set_header X-Forwarded-Proto \$scheme;/)
  assert.match(site, /location = \/mcp \{[^}]*proxy_buffering off;[^}]*proxy_read_timeout 1h;/)
  assert.match(site, /location = \/metrics \{\s*return 404;/)
  assert.doesNotMatch(site.replace(/#.*/g, ''), /9464/, 'nothing proxies to the metrics listener')
})

test("nginx balancer of compose.yaml: nginx -t accepts it (the nodes' names replaced by loopback addresses)", () => {
  const dir = tempDir()
  const local = read('deploy/nginx/compose-balancer.conf').replace(/server node\d+:8080;/g, 'server 127.0.0.1:8080;')
  writeFileSync(join(dir, 'default.conf'), local)
  nginxTest(dir, `  include ${join(dir, 'default.conf')};`)
})

// --- systemd ---------------------------------------------------------------------------------------------------

const unitText = read('deploy/reviews-service.service')
/** The unit with ExecStart pointing at this machine's node: verify checks that the binary exists. */
function unitHere(): string {
  assert.match(unitText, /^ExecStart=\/usr\/bin\/node dist\/cli\.js serve$/m)
  const file = join(tempDir(), 'reviews-service.service')
  writeFileSync(file, unitText.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `))
  return file
}

test('systemd unit: systemd-analyze verify has nothing to say', () => {
  const r = runTool(SYSTEMD_ANALYZE, ['verify', unitHere()])
  assert.equal(r.status, 0, r.output)
  assert.equal(r.output.trim(), '')
})

test('systemd unit: systemd-analyze security rates its exposure 2.0 or lower', () => {
  const r = runTool(SYSTEMD_ANALYZE, ['security', '--offline=true', unitHere()])
  const level = /Overall exposure level for \S+: (\d+\.\d+)/.exec(r.output)
  assert.ok(level, r.output)
  assert.ok(Number(level[1]) <= 2, r.output)
})

test('systemd unit: sandboxed, a user of its own, state in its StateDirectory, settings that pass the configuration check', () => {
  const settings = new Map<string, string[]>()
  for (const [, key, value] of unitText.matchAll(/^(\w+)=(.*)$/gm)) settings.set(key!, [...(settings.get(key!) ?? []), value!])
  const value = (key: string) => settings.get(key)?.at(-1)
  const expected: Record<string, string> = {
    User: 'reviews',
    WorkingDirectory: '/opt/reviews-service',
    EnvironmentFile: '-/etc/reviews-service/env',
    Restart: 'on-failure',
    KillSignal: 'SIGTERM',
    NoNewPrivileges: 'yes',
    CapabilityBoundingSet: '',
    ProtectSystem: 'strict',
    ProtectHome: 'yes',
    PrivateTmp: 'yes',
    PrivateDevices: 'yes',
    ProtectKernelTunables: 'yes',
    ProtectKernelModules: 'yes',
    ProtectKernelLogs: 'yes',
    ProtectControlGroups: 'yes',
    RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
    RestrictNamespaces: 'yes',
    LockPersonality: 'yes',
    SystemCallArchitectures: 'native',
    // V8's JIT writes code and then runs it.
    MemoryDenyWriteExecute: 'no'
  }
  for (const [key, v] of Object.entries(expected)) assert.equal(value(key), v, key)
  assert.equal(settings.get('SystemCallFilter')?.[0], '@system-service')
  const env = Object.fromEntries(settings.get('Environment')!.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]))
  assertValidSettings(env, 'systemd unit')
  assert.ok(env.DATABASE_URL!.startsWith(`sqlite:/var/lib/${value('StateDirectory')}/`), 'the database in the one writable directory')
  assert.ok(Number.parseInt(value('TimeoutStopSec')!) * 1000 > Number(env.SHUTDOWN_GRACE_MS ?? 0) + 3000)
})

// --- Grafana ---------------------------------------------------------------------------------------------------

interface Panel {
  id: number
  type: string
  title: string
  gridPos: { x: number; y: number; w: number; h: number }
  datasource?: { type: string; uid: string }
  targets?: { expr: string; datasource: { uid: string } }[]
}
const dashboard = JSON.parse(read('deploy/grafana/reviews-service.json')) as {
  schemaVersion: number
  uid: string
  panels: Panel[]
  templating: { list: { name: string; type: string; query: unknown }[] }
}
const queryPanels = dashboard.panels.filter((p) => p.type !== 'row')
const queries = queryPanels.flatMap((p) => p.targets!.map((t) => ({ panel: p.title, expr: t.expr })))

test('Grafana dashboard: Prometheus chosen through DS_PROMETHEUS, every panel on it, laid out on the 24-column grid without overlaps', () => {
  assert.ok(dashboard.schemaVersion >= 39)
  assert.equal(dashboard.uid, 'reviews-service')
  const ds = dashboard.templating.list.find((v) => v.name === 'DS_PROMETHEUS')
  assert.deepEqual([ds?.type, ds?.query], ['datasource', 'prometheus'])
  assert.equal(new Set(dashboard.panels.map((p) => p.id)).size, dashboard.panels.length, 'unique panel ids')
  for (const p of queryPanels) {
    assert.deepEqual(p.datasource, { type: 'prometheus', uid: '${DS_PROMETHEUS}' }, p.title)
    assert.ok(p.targets!.length > 0 && p.targets!.every((t) => t.datasource.uid === '${DS_PROMETHEUS}'), p.title)
  }
  const boxes = dashboard.panels.map((p) => p.gridPos)
  for (const [i, a] of boxes.entries()) {
    assert.ok(a.x >= 0 && a.x + a.w <= 24, dashboard.panels[i]!.title)
    for (const b of boxes.slice(i + 1)) assert.ok(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y, `${dashboard.panels[i]!.title} overlaps`)
  }
})

/** The service's metrics as its registry declares them (prom-client's defaults included): name -> type and labels. */
const exported = new Map(
  new Metrics().registry.getMetricsAsArray().map((m) => [m.name, { type: String(m.type), labels: (m as unknown as { labelNames: string[] }).labelNames }])
)
/** A series name Prometheus stores for an exported metric: a histogram's are its _bucket, _sum and _count. */
function seriesOf(name: string): { metric: string; counter: boolean; labels: string[] } | undefined {
  const plain = exported.get(name)
  if (plain && plain.type !== 'histogram') return { metric: name, counter: plain.type === 'counter', labels: plain.labels }
  const [, base, part] = /^(.*)_(bucket|sum|count)$/.exec(name) ?? []
  const histogram = base ? exported.get(base) : undefined
  if (histogram?.type === 'histogram') return { metric: base!, counter: true, labels: part === 'bucket' ? [...histogram.labels, 'le'] : histogram.labels }
  return undefined
}
/** Added by Prometheus to every series it scrapes. */
const TARGET_LABELS = ['job', 'instance']

test('Grafana dashboard: every query is PromQL naming only metrics and labels the service exports; rate and increase only on counters', () => {
  for (const { panel, expr } of queries) {
    const q = expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m')
    const text = (n: { from: number; to: number }) => q.slice(n.from, n.to)
    const selectors: { from: number; to: number; name: string }[] = []
    const rated: { from: number; to: number }[] = []
    const grouped: string[] = []
    const labelsOf = new Set(TARGET_LABELS)
    parser.parse(q).iterate({
      enter: (n) => {
        assert.ok(!n.type.isError, `${panel}: PromQL syntax error at "${q.slice(n.from, n.from + 20)}" in ${expr}`)
        if (n.name === 'VectorSelector') {
          const name = text(n.node.getChild('Identifier')!)
          const series = seriesOf(name)
          assert.ok(series, `${panel}: ${name} is not a metric the service exports`)
          series.labels.forEach((l) => labelsOf.add(l))
          for (const matcher of n.node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
            const label = text(matcher.getChild('LabelName')!)
            assert.ok([...TARGET_LABELS, ...series.labels].includes(label), `${panel}: ${name} has no label ${label}`)
          }
          selectors.push({ from: n.from, to: n.to, name })
        }
        if (n.name === 'GroupingLabels') grouped.push(...n.node.getChildren('LabelName').map(text))
        if (n.name === 'FunctionCall' && ['rate', 'irate', 'increase'].includes(text(n.node.getChild('FunctionIdentifier')!))) rated.push({ from: n.from, to: n.to })
      }
    })
    for (const label of grouped) assert.ok(labelsOf.has(label), `${panel}: no metric in ${expr} has the label ${label}`)
    for (const r of rated) {
      for (const s of selectors.filter((s) => s.from >= r.from && s.to <= r.to)) assert.ok(seriesOf(s.name)!.counter, `${panel}: rate or increase of the gauge ${s.name}`)
    }
  }
})

test("Grafana dashboard: a panel for every one of the service's own metrics", () => {
  const defaults = new Registry()
  collectDefaultMetrics({ register: defaults })
  const builtIn = new Set(defaults.getMetricsAsArray().map((m) => m.name))
  const used = new Set(queries.flatMap(({ expr }) => [...expr.matchAll(/[a-z_:][a-z0-9_:]*/g)].map((m) => seriesOf(m[0])?.metric).filter(Boolean)))
  const missing = [...exported.keys()].filter((name) => !builtIn.has(name) && !used.has(name))
  assert.deepEqual(missing, [])
})
