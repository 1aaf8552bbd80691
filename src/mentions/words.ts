/**
 * English words that are also given names or nicknames. A staff name on this list only counts when the review
 * writes it capitalised ("Will was kind", not "we will"), and a capitalised word on it is never read as a misspelt name.
 */
export const NAME_LIKE_WORDS = new Set(
  `able abbey adore amber angel april art autumn bank bay bell belle bill birch bishop blair blaze bliss bloom bo
  bond brand brook buck bud burke buster butch cash chance chase cherry chip christian clay cliff coal cole cook
  cooper crystal dale dash dawn day dean dell destiny diamond dick doc don dot drew duke dusty earl eden ember ernest
  essence faith fay fern fisher fleming ford forest fox frank gale gene gift glen gold golden grace grant gray green
  grey guy hall harmony harper hazel heath heather holly honey hope hunter iris ivy jack jade jasmine jay jean jewel
  jimmy joy judge june justice kay kent king kit lacy lake lance lane laurel lee lily lincoln love lucky mac major
  march mark marsh mason matt may meadow mercy merry miles miller misty moon morgan ned neil nick noble north oak
  olive opal page paige park parker pat patience peace pearl penny pepper pierce piper poppy porter price prince
  queen rain ray reed rich rob robin rock rose rosemary ruby rush rusty sage sandy savanna scout sky skip sonny
  spencer spring star sterling stone storm sue summer sunny tanner taylor terry trinity true tucker tyler victor
  violet wade walker ward warren wes west will willow win winter wolf wood woody wren young`.split(/\s+/)
)

/** Honorifics that, before a surname, name a person ("Mrs. Hollis", "Pastor Marchetti"). */
export const TITLES = new Set(
  'mr mrs ms miss mx dr doctor pastor reverend rev father fr sister brother rabbi imam chaplain deacon'.split(' ')
)
