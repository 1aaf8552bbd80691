/** An import file that cannot be loaded; `problems` lists every bad row and field, one line each. */
export class ImportFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[]
  ) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing was imported\n${problems.map((p) => `  ${p}`).join('\n')}`)
  }
}
