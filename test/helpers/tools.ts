import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface ToolResult {
  status: number | null
  output: string
}

/** Runs a command-line validator (xmllint, jing, redocly) on a file; installed by .ci/run. */
export function runTool(command: string, args: string[]): ToolResult {
  const r = spawnSync(command, args, { encoding: 'utf8' })
  if (r.error) throw new Error(`${command} is not available (${r.error.message}); .ci/run installs it`)
  return { status: r.status, output: `${r.stdout}${r.stderr}` }
}

export function writeTemp(dir: string, name: string, content: string | Buffer): string {
  const file = join(dir, name)
  writeFileSync(file, content)
  return file
}
