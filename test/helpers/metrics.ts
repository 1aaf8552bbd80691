import { get } from './http.js'

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** One sample line of the Prometheus text format: name{label="value",...} number. */
const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const m = LINE.exec(line)
    if (!m) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return samples
}

/** GET /metrics, parsed; `text` is the exposition as served. */
export async function scrape(metricsUrl: string): Promise<{ text: string; samples: Sample[]; contentType: string }> {
  const r = await get(metricsUrl)
  if (r.status !== 200) throw new Error(`${metricsUrl} answered ${r.status}: ${r.text}`)
  return { text: r.text, samples: parseExposition(r.text), contentType: String(r.headers['content-type']) }
}

/** The value of the one sample with this name whose labels include `labels` (0 when there is none). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value ?? 0
}

/** Distinct label sets (series) per metric name. */
export function seriesCount(samples: Sample[], name: string): number {
  return samples.filter((s) => s.name === name).length
}
