import { Code, DocsTable, Section } from './blocks.js'

/**
 * The import formats, for whoever runs this service: what each accepts and the command for it. The full rules
 * (every column and option, what --replace does) are in the README's "Getting your reviews in".
 */
export function ImportFormats() {
  return (
    <Section id="import">
      <p>
        The reviews published here are loaded by whoever runs this service, with its <code>import</code> command. A file is read and checked whole first:
        any problem stops the import with a list of every bad row and field, and nothing is written.
      </p>
      <DocsTable columns={['Format', 'What it is', 'Command']}>
        {FORMATS.map((f) => (
          <tr>
            <th scope="row">{f.name}</th>
            <td>{f.what}</td>
            <td>
              <code>{f.command}</code>
            </td>
          </tr>
        ))}
      </DocsTable>
      <p>
        Google reviews keep Google's review id (as <code>google-</code> and the id), so importing again updates them; with <code>--replace</code>, reviews no
        longer on Google are removed and reviews from other sources are left alone. Where Google added its own translation to a text, the reviewer's original
        words are kept and the translation is left out. Dates are the day each review was written in the business's time zone (<code>time_zone</code> in its
        business file).
      </p>
      <Code>{'npm run import -- exports/yelp.csv --map "author=Reviewer name,rating=Stars,date=Date,text=Review" \\\n  --source yelp --date-format MM/DD/YYYY --verified'}</Code>
    </Section>
  )
}

const FORMATS = [
  { name: 'reviews.json', what: 'The shape of this site\'s reviews.json, business included: a published dataset re-imports as it is.', command: 'npm run import -- reviews.json' },
  { name: 'CSV', what: 'One review per row, with this service\'s own column names.', command: 'npm run import -- reviews.csv' },
  {
    name: 'Google Business Profile',
    what: 'Pages of the Business Profile API\'s reviews.list, as Google returns them: one file, or a folder of every page.',
    command: 'npm run import -- google-pages/ --replace'
  },
  {
    name: 'Google Takeout',
    what: 'The reviews files of a Takeout export of the Business Profile: the location folder, or any folder above it.',
    command: 'npm run import -- "Takeout/Google Business Profile"'
  },
  {
    name: 'Any other CSV',
    what: 'An export from Yelp, Facebook, Trustpilot or a spreadsheet, read through a mapping of its columns (--map), with --date-format, --rating-scale ("8/10" reads as 4 stars) and --verified.',
    command: 'npm run import -- export.csv --map "…" --source yelp'
  }
]
