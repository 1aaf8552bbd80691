import { Taxonomy } from '../domain/index.js'
import { eventLexicon } from './events.js'
import { peopleLexicon } from './people.js'
import lexicon from './wordnet-lexicon.json' with { type: 'json' }

/**
 * The built-in taxonomy for a funeral home (decisions.md section 1). Only terms mark that a clause is about an
 * aspect; positive/negative cues only give polarity, and only inside clauses about that aspect ("long" is bad for
 * timeliness, "cold" for compassion or facilities). General praise and blame come from the lexicon. A business
 * file's `taxonomy` replaces this whole object.
 */
export const FUNERAL_HOME_HAND_TAXONOMY = Taxonomy.parse({
  aspects: [
    {
      id: 'compassion',
      label: 'Compassion',
      question: 'Are the staff kind and compassionate?',
      terms: [
        'kind', 'kindness', 'compassion', 'compassionate', 'caring', 'gentle', 'gentleness', 'gently', 'warmth',
        'empathy', 'empathetic', 'comfort', 'comforting', 'patient', 'patience', 'patiently', 'sympathetic', 'sympathy',
        'understanding', 'sensitive', 'supportive', 'hug', 'like family', 'took their time', 'held my hand',
        'made us feel', 'never rushed', 'rushed', 'rush', 'sweet', 'thoughtful', 'gracious', 'made it bearable',
        'made it easier', 'made this easier', 'made everything easier', 'made things easier', 'talk down to',
        'talked down to', 'treated us', 'treated mom', 'treated dad', 'treated him', 'treated her', 'sat with us',
        'took the time', 'cared', 'genuinely cared', 'comforted', 'reassured', 'reassuring', 'calm', 'calming',
        'soothing', 'cried with us', 'hugged', 'listened', 'respected our wishes', 'bearable', 'lighter', 'knelt',
        'kneel', 'eye level', 'by name', 'held her hand', 'held his hand', 'holding her hand', 'holding his hand',
        'covered him', 'covered her', 'let me', 'let us', 'let her', 'let him', 'let them', 'let the kids',
        'understood', 'hurry', 'hurried', 'hurrying', 'glanced at the clock', 'looked at the clock', 'watched the clock',
        'glanced at his watch', 'glanced at her watch', 'looked at his watch', 'looked at her watch',
        'these things happen', 'made us wait', 'gave us time', 'took time', 'no rush', 'never rushed us', 'distracted',
        'judged', 'judging', 'belittled', 'shamed', 'condescended', 'angel', 'angels', 'saint', 'godsend', 'looked after',
        'flinched', 'took it seriously', 'took that seriously',
        'aloof', 'indifferent', 'uninterested', 'detached', 'robotic', 'mechanical', 'going through the motions',
        'unkind', 'callous', 'insensitive', 'rude', 'dismissive', 'uncaring', 'heartless', 'curt', 'brusque',
        'condescending', 'impatient', 'tender', 'tenderness', 'loving', 'lovingly', 'graciously', 'rolled her eyes',
        'rolled his eyes', 'rolled their eyes', 'eye roll', 'apologized', 'apology', 'checked his watch', 'checked her watch',
        'sensitivity', 'insensitivity', 'made me feel'
      ],
      positive: ['kind', 'compassionate', 'caring', 'gentle', 'gently', 'warm', 'patient', 'patiently', 'sympathetic', 'supportive', 'thoughtful', 'gracious', 'tender', 'loving', 'lovingly', 'sweet', 'comforting', 'understanding'],
      negative: ['cold', 'callous', 'unkind', 'insensitive', 'rude', 'dismissive', 'uncaring', 'heartless', 'curt', 'brusque', 'condescending', 'impatient', 'rushed', 'rush', 'judged', 'judging', 'belittled', 'shamed', 'flinched', 'distracted', 'aloof', 'indifferent', 'uninterested', 'detached', 'robotic', 'mechanical']
    },
    {
      id: 'communication',
      label: 'Communication',
      question: 'How well do they keep families informed?',
      terms: [
        'calls', 'phone call', 'call back', 'called back', 'called us', 'called me', 'called to', 'call us', 'call me',
        'return my call', 'returned my call', 'return our call', 'returned our call', 'a call', 'the call', 'phone',
        'answer', 'respond', 'response', 'responsive', 'reply', 'callback', 'text', 'email', 'on hold',
        'update', 'explain', 'explanation', 'question', 'informed', 'inform', 'communicate', 'communication', 'reach',
        'contact', 'voicemail', 'message', 'listen', 'walked us through', 'walk us through', 'kept us informed',
        'in the loop', 'heard back', 'unresponsive', 'miscommunication', 'confusing', 'ring', 'check in', 'checked in',
        'follow up', 'followed up', 'told us', 'told me', 'tell us', 'tell me', 'let us know', 'kept us posted',
        'kept us updated', 'kept me updated', 'checked on us', 'checked in on', 'got back to', 'reached out', 'in touch',
        'phone calls', 'emails', 'texts', 'answered all', 'returned every', 'heads up', 'notified', 'updates',
        'explained everything', 'explained each', 'explained every', 'had to call', 'have to call', 'had to chase',
        'had to keep calling', 'had to ask', 'had to track', 'had to hunt', 'step by step', 'what to expect',
        // Speaking so the family can follow: slowly, or in writing ("speak slow for me", "wouldn't slow down").
        'speak slowly', 'speak slow', 'talk slowly', 'slow down', 'write down', 'write everything down', 'write it down',
        'what would happen', 'what happens', 'customer service', 'warned us', 'warned me', 'warn us',
        // News the family had from someone else: nobody there told them.
        'found out from', 'find out from', 'had to find out', 'found out on our own'
      ],
      positive: ['responsive', 'clear', 'clearly', 'informed', 'explained', 'speak slowly', 'speak slow', 'talk slowly', 'slow down', 'write down', 'write everything down', 'write it down'],
      negative: ['unresponsive', 'ignored', 'confusing', 'unclear', 'miscommunication', 'voicemail', 'found out from', 'find out from', 'had to find out', 'found out on our own']
    },
    {
      id: 'professionalism',
      label: 'Professionalism',
      question: 'Do they handle everything with dignity and care?',
      terms: [
        'professional', 'professionalism', 'dignity', 'dignified', 'respectful', 'respect', 'organized', 'organised',
        'detail', 'thorough', 'competent', 'efficient', 'prepared', 'mistake', 'error', 'sloppy', 'unprofessional',
        'disorganized', 'disorganised', 'organization', 'organisation', 'organizer', 'organiser', 'appearance', 'presentation', 'embalming', 'dressed', 'hair', 'makeup',
        'look like himself', 'look like herself', 'look like him', 'look like her', 'look peaceful',
        'meticulous', 'seamless', 'seamlessly', 'smoothly', 'flawless', 'flawlessly', 'mix-up', 'mixup', 'careless',
        'incompetent', 'impeccable', 'polished', 'attention to detail', 'look natural', 'he looked', 'she looked',
        'mom looked', 'dad looked', 'restored', 'cosmetics', 'handled him', 'handled her', 'with care', 'carefully',
        'misplaced', 'mislabeled', 'wrong name', 'lost the', 'lost his', 'lost her', 'mixed up', 'outfit', 'clothes',
        'clothing', 'blouse', 'glasses', 'jewelry', 'wrong blouse', 'wrong clothes', 'job with', 'did a beautiful job',
        'did a wonderful job', 'did an amazing job', 'did a great job', 'careful work', 'such careful', 'wrapped him',
        'wrapped her', 'with dignity', 'spelled wrong', 'properly', 'respectfully',
        // The staff's craft, named as their work ("Jonah's work on Dad was excellent") or as work done right.
        "'s work", 'his work', 'her work', 'their work', 'work on', 'done right', 'did it right', 'got it right', 'got everything right'
      ],
      positive: ['professional', 'dignified', 'respectful', 'organized', 'organised', 'thorough', 'competent', 'efficient', 'meticulous', 'seamless', 'seamlessly', 'smoothly', 'flawless', 'flawlessly', 'impeccable', 'polished', 'natural', 'peaceful', 'done right', 'did it right', 'got it right', 'got everything right'],
      negative: ['unprofessional', 'sloppy', 'disorganized', 'disorganised', 'careless', 'mistake', 'error', 'incompetent', 'mix-up', 'mixup', 'wrong', 'lost', 'misplaced', 'mislabeled']
    },
    {
      id: 'pricing',
      label: 'Pricing',
      negated: 'praise',
      question: 'Are the prices clear, or are there surprise costs?',
      terms: [
        'price', 'pricing', 'cost', 'fee', 'charge', 'bill', 'billing', 'invoice', 'expensive', 'affordable', 'cheap',
        'cheaper', 'reasonable', 'value', 'money', 'budget', 'quote', 'itemized', 'itemize', 'price list', 'upsell',
        'upselling', 'upsold', 'pushy', 'package', 'payment', 'refund', 'deposit', 'dollar', 'overpriced', 'overcharge',
        'overcharged', 'afford', 'pay', 'paid', 'financing', 'discount', 'transparent', 'transparency', 'worth every penny',
        'hidden fee', 'surprise', 'markup', 'pricey', 'costly', 'estimate', 'charged', 'waived', 'pressure', 'pressured',
        'sales pitch', 'being sold', '$', 'payment plan', 'prices', 'costs', 'fees', 'charges', 'expense', 'expenses',
        'upgrade', 'upgrades', 'pushed anything', 'push anything', 'pushes anything', 'pushing anything', 'pushed us',
        'push us', 'pushing us', 'pushed me', 'talk us into', 'talked us into', 'talk me into', 'talked me into'
      ],
      positive: ['affordable', 'reasonable', 'fair', 'transparent', 'upfront', 'itemized', 'honest', 'discount', 'waived', 'cheaper', 'cheap', 'inexpensive', 'bargain', 'worth', 'value', 'exactly', 'less', 'lower', 'lowest', 'below', 'under'],
      negative: ['expensive', 'overpriced', 'overcharged', 'overcharge', 'pushy', 'upsell', 'upselling', 'upsold', 'hidden', 'surprise', 'steep', 'exorbitant', 'pricey', 'costly', 'markup', 'extra', 'high', 'pressure', 'pressured', 'double', 'doubled', 'twice', 'padded', 'inflated']
    },
    {
      id: 'timeliness',
      label: 'Timeliness',
      question: 'Do things happen on time?',
      terms: [
        'on time', 'late', 'delay', 'delayed', 'wait', 'waiting', 'quick', 'quickly', 'fast', 'prompt', 'promptly',
        'speed', 'slow', 'slowly', 'timely', 'punctual', 'immediately', 'right away', 'take forever', 'overdue', 'swift',
        'within <duration>', 'took <duration>', 'take <duration>', 'takes <duration>', 'taking <duration>',
        '<duration> later', 'after <duration>', 'under <duration>', 'finally', 'supposed to be ready', 'not ready',
        'still not', 'wait time', 'took so long', 'ahead of schedule', 'showed up late', 'arrived late', 'arrived on time',
        'right on time', 'within minutes', 'in no time', 'turned around', 'within the week', 'within the day',
        'done in <duration>', 'back in <duration>', 'ready in <duration>', 'returned in <duration>', 'home in <duration>',
        'back within', 'ready within', 'sorted in <duration>', 'handled in <duration>', 'finished in <duration>',
        'completed in <duration>', 'arrived in <duration>', 'delivered in <duration>', 'filed in <duration>',
        'swiftly', 'took weeks', 'same day', 'next day', 'within the hour', 'within an hour', 'turnaround',
        'hours later', 'days later', 'weeks later', 'on schedule', 'behind schedule',
        'take so long', 'taking forever', '<duration> start to finish', 'hours early', 'minutes early',
        // Long waits told without a number: "the permit took ages", "took a while", "longer than promised".
        'take ages', 'take long', 'take too long', 'take a long time', 'take a while', 'longer than promised',
        'longer than expected', 'longer than they said', 'still waiting'
      ],
      positive: ['quick', 'quickly', 'fast', 'prompt', 'promptly', 'timely', 'punctual', 'immediately', 'swift', 'swiftly', 'early', 'on time', 'within', 'right on time', 'ahead of schedule', 'in no time', 'on schedule', 'arrived on time'],
      negative: ['late', 'delay', 'delayed', 'slow', 'slowly', 'forever', 'overdue', 'long', 'wait', 'waiting', 'behind', 'finally', 'supposed', 'behind schedule', 'took so long', 'showed up late', 'arrived late', 'take ages', 'take too long', 'take a long time', 'take a while', 'longer than promised', 'longer than expected', 'longer than they said', 'still waiting']
    },
    {
      id: 'facilities',
      label: 'Facilities',
      question: 'What are the facilities like?',
      terms: [
        'chapel', 'building', 'facility', 'parking', 'parking lot', 'clean', 'cleanliness', 'restroom',
        'bathroom', 'air conditioning', 'ac', 'seating', 'seat', 'chair', 'lobby', 'accessible', 'accessibility',
        'wheelchair', 'ramp', 'lighting', 'decor', 'grounds', 'garden', 'property', 'hall', 'temperature',
        'stuffy', 'cramped', 'spotless', 'spacious', 'renovated', 'renovation', 'carpet', 'furniture', 'sound system', 'heat',
        'heating', 'visitation room', 'reception room', 'viewing room', 'fireplace', 'windows', 'degrees', 'thermostat',
        'parking spaces', 'entrance', 'stairs', 'elevator', 'pews', 'family room', 'the room was', 'rooms were',
        'arrangement room', 'side room'
      ],
      positive: ['clean', 'spotless', 'spacious', 'comfortable', 'renovated', 'accessible', 'cozy', 'elegant', 'immaculate', 'bright', 'quiet', 'cool'],
      negative: ['dirty', 'cramped', 'hot', 'stuffy', 'small', 'tiny', 'shabby', 'dated', 'worn', 'broken', 'cold', 'crowded', 'dark', 'smelly', 'noisy', 'freezing', 'chilly', 'sweltering', 'wet', 'soaking', 'muddy', 'leaking', 'leaky']
    },
    {
      id: 'arrangements',
      label: 'Arrangements',
      question: 'Do they help with paperwork like death certificates and the obituary?',
      terms: [
        'paperwork', 'forms', 'death certificate', 'certificate', 'permit', 'obituary', 'arrangements', 'planning meeting',
        'arrangement meeting', 'arrangement conference', 'logistics', 'transport', 'transfer', 'pickup', 'coordinate',
        'coordination', 'coordinated', 'va benefits', 'veterans benefits', 'insurance', 'social security', 'plot',
        'headstone', 'documents', 'document', 'filing', 'filed', 'newspaper',
        'took care of everything', 'handled everything', 'death certificates', 'permits', 'on file', 'prearranged',
        'pre-arranged', 'preplanned', 'pre-planned', 'options', 'choices', 'removal', 'picked him up', 'picked her up',
        'picked up dad', 'picked up mom', 'brought him', 'brought her', 'coordinated with', 'preplan', 'pre-plan',
        'preplanning', 'pre-planning', 'prearrangement', 'pre-arrangement',
        // Pre-planning and transfers as families write them (the phrases src/mentions/kinds.ts names these services by),
        // the online tribute page, and the offices the paperwork goes to.
        'prepaid', 'pre-paid', 'prepay', 'pre-pay', 'pre need', 'pre-need', 'preneed', 'planned ahead', 'plan ahead',
        'planning ahead', 'planned in advance', 'paid in advance', 'arranged in advance', 'flown home', 'flew him home',
        'flew her home', 'shipped him', 'shipped her', 'repatriation', 'online tribute', 'tribute page', 'memorial page',
        'online obituary', 'online guest book', 'consulate', 'embassy', 'airline', 'the va', 'paper', 'picking up'
      ],
      positive: ['organized', 'easy', 'handled'],
      negative: ['misspelled', 'typo', 'lost', 'wrong', 'missing', 'forgot', 'forgotten']
    },
    {
      id: 'ceremony',
      label: 'Ceremony',
      question: 'How do the services themselves go?',
      terms: [
        'ceremony', 'eulogy', 'music', 'song', 'hymn', 'slideshow', 'video', 'tribute', 'officiant', 'celebrant',
        'flower', 'floral', 'program', 'livestream', 'live stream', 'stream', 'visitation', 'viewing', 'wake',
        'procession', 'honor guard', 'flag', 'taps', 'reception', 'candle', 'prayer', 'rosary', 'funeral service',
        'memorial service', 'graveside service', 'committal service', 'the service', 'celebration of life', 'speaker',
        'microphone', 'slide show', 'photos', 'bagpipe', 'bagpiper', 'singer', 'organist', 'homily', 'sermon',
        'readings', 'the memorial', 'graveside', 'recording', 'military honors', 'bugler', 'webcast', 'streamed',
        'livestreamed', 'zoom', "'s service", "'s memorial", "'s funeral", 'funeral mass',
        'scattering', 'send-off', 'sendoff'
      ],
      positive: ['moving', 'touching', 'meaningful', 'personal', 'personalized', 'heartfelt', 'fitting'],
      negative: ['impersonal', 'generic', 'template', 'glitch', 'glitchy', 'cut', 'froze', 'frozen', 'freeze', 'dropped', 'wrong']
    }
  ],
  turnaround: {
    question: 'How long does it take to get the ashes back?',
    subject: ['ashes', 'ash', 'cremains', 'remains', 'urn', 'cremated remains']
  },
  staff_question: 'Who will we work with?'
})

/**
 * The hand-written taxonomy grown from WordNet (scripts/build-lexicon.ts, reviewed once): synonyms, antonyms, derived
 * forms and similar adjectives of its terms and cues. People-adjectives are not merged here: they judge only when said
 * of a person (people.ts, FUNERAL_HOME_PEOPLE). The hand part was parsed above; the grown one is generated data, so it
 * is not held to the size limits of a business file's taxonomy.
 */
export const FUNERAL_HOME_TAXONOMY: Taxonomy = ({
  ...FUNERAL_HOME_HAND_TAXONOMY,
  aspects: FUNERAL_HOME_HAND_TAXONOMY.aspects.map((a) => {
    const grown = (lexicon.aspects as Record<string, { terms: string[]; positive: string[]; negative: string[] }>)[a.id]
    const union = (base: string[], more: string[] = []) => [...new Set([...base, ...more])]
    return { ...a, terms: union(a.terms, grown?.terms), positive: union(a.positive, grown?.positive), negative: union(a.negative, grown?.negative) }
  })
})

/** People-adjectives of the built-in aspects and nouns for people; words that are already terms keep working as terms. */
export const FUNERAL_HOME_PEOPLE = peopleLexicon(
  Object.fromEntries(Object.entries(lexicon.people as unknown as Record<string, [string, number]>).filter(([w]) => !FUNERAL_HOME_TAXONOMY.aspects.some((a) => a.terms.includes(w)))),
  lexicon.persons,
  lexicon.kin
)

/** Verbs of care and of failure of the built-in aspects (events.ts), grown from WordNet by scripts/build-lexicon.ts. */
export const FUNERAL_HOME_EVENTS = eventLexicon(lexicon.events)
