#!/usr/bin/env node
// A throwaway PostgreSQL cluster for the tests: initdb into the OS tmp dir, start on a free 127.0.0.1 port, and stop and
// delete it at the end. fsync is off (the data dies with the run anyway), which keeps a start near half a second.
//
//   node scripts/postgres.mjs                 starts one, prints TEST_POSTGRES_URL=..., stops it on Ctrl-C
//   node scripts/postgres.mjs <command...>    runs the command with TEST_POSTGRES_URL set, then stops it
//
// scripts/test.mjs imports startPostgres(). initdb refuses to run as root, so root runs it as the `postgres` user.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Many test services run at once, each with a pool of up to 10 connections and a listener. */
const MAX_CONNECTIONS = 300

/** The server programs: where pg_config says, else the newest Debian install. */
export function postgresBinDir() {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' })
  if (fromConfig.status === 0 && existsSync(join(fromConfig.stdout.trim(), 'initdb'))) return fromConfig.stdout.trim()
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : []
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (!newest) throw new Error('PostgreSQL server programs not found (initdb, pg_ctl): run scripts/ensure-test-tools.sh')
  return join(root, newest, 'bin')
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts a cluster and returns its admin URL (user postgres, database postgres, trust authentication on loopback
 * only) and a stop() that removes every trace of it.
 */
export async function startPostgres() {
  const bin = postgresBinDir()
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'reviews-pg-'))
  if (asRoot) chownSync(dir, ...postgresIds())
  const data = join(dir, 'data')
  // Runs a server program as the user that owns the cluster.
  const run = (program, args) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args]
    return execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
  }
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } catch {
      // Not running (a failed start): only the files are left to remove.
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
    const port = await startOnFreePort(run, data, dir)
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop }
  } catch (err) {
    stop()
    throw err
  }
}

/** A free port can be taken between the probe and the server's bind: try a few. */
async function startOnFreePort(run, data, dir) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const settings = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-k ${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      `-c max_connections=${MAX_CONNECTIONS}`
    ]
    try {
      run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', settings.join(' '), 'start'])
      return port
    } catch (err) {
      if (attempt === 3) throw new Error(`PostgreSQL did not start: ${err.stderr || err.message}`)
    }
  }
}

function postgresIds() {
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  return [id('-u'), id('-g')]
}

/** Stops the cluster once, whichever way the process ends. */
export function stopOnExit(cluster) {
  let stopped = false
  const stopOnce = () => {
    if (stopped) return
    stopped = true
    cluster.stop()
  }
  process.once('exit', stopOnce)
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stopOnce()
      process.exit(130)
    })
  }
  return stopOnce
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now()
  const cluster = await startPostgres()
  const stop = stopOnExit(cluster)
  const command = process.argv.slice(2)
  if (command.length === 0) {
    console.log(`TEST_POSTGRES_URL=${cluster.url}`)
    console.error(`PostgreSQL up in ${Date.now() - started} ms; Ctrl-C stops and deletes it`)
    setInterval(() => {}, 1 << 30)
  } else {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env: { ...process.env, TEST_POSTGRES_URL: cluster.url } })
    child.once('exit', (code, signal) => {
      stop()
      process.exit(code ?? (signal ? 1 : 0))
    })
  }
}
