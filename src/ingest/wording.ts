/** "1 review", "3 reviews": the import summary's counts. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}
