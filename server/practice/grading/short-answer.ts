/**
 * Short factual answers against a short reference ("Jupiter", "carbon dioxide", "went").
 *
 * The answer is read as a teacher reads it: split into statements, each asserted, denied
 * ("Jupiter is not the largest", "not X but Y") or taken back by a correction ("mitochondria?
 * no, ribosomes"). The reference must be asserted and never denied after, and no other thing of
 * the same kind may be asserted beside it ("Mars or Jupiter"). A match may be the same word in
 * another regular form, a WordNet synonym of it, a name or formula WordNet gives for the same
 * thing (CO2, Shakespeare for William Shakespeare), a surname for a full name, a number in words,
 * or a slip of spelling that is not itself a word; never an antonym, another form of an irregular
 * word, or a longer name of something else ("George Washington Carver"). The answer is read by
 * statements.ts, words are looked up by senses.ts; what a numeric answer adds is added-claim.ts.
 */
import { lookup, synset, type Synset } from '../lexicon/wordnet.ts';
import { CONFIDENCE, MATCH } from './thresholds.ts';
import type { GradeResult } from '../types.ts';
import { readableText } from './accents.ts';
import { formulaNames } from './chem.ts';
import { longerTerm } from './longer-term.ts';
import { numberFromWords } from './number-words.ts';
import { antonymOf, closeSenses, hasWord, hypernymsWithin, irregular, isWord, lemmas, POSES, related, senses } from './senses.ts';
import { contentWords, denied, FILLER, questionWords, statements, wordsOf, type Match, type Statement, type Word } from './statements.ts';
import { misattributedSuperlative } from './superlative.ts';
import { isSlip, NEGATIONS, plainChange } from './text.ts';

/** Particles inside a name, between the first name and the surname ("Vincent van Gogh", "Leonardo da Vinci"). */
const PARTICLES = new Set(['van', 'de', 'da', 'von', 'der', 'den', 'des', 'le', 'la', 'du', 'di', 'del', 'della', 'dos', 'das', 'ter', 'ten', 'bin', 'ibn']);
const TITLES = new Set(['president', 'king', 'queen', 'sir', 'dame', 'saint', 'st', 'dr', 'doctor', 'mr', 'mrs', 'ms', 'lord', 'lady', 'general', 'emperor', 'empress', 'prince', 'princess', 'pope', 'professor', 'prof']);
// A symbol, formula or abbreviation asked for is that written form: "gold" is not the symbol Au.
const FORM_QUESTION = /\b(?:past tense|past participle|present participle|plural|singular|comparative|superlative|spell(?:ing|ed)?|conjugat\w*|(?:verb|noun|adjective) form|form of the (?:verb|word)|-ing form|third person|(?:chemical|element|atomic)\s+symbol|symbol\s+(?:for|of)\s+(?:the\s+)?(?:element|chemical)?|(?:chemical|molecular|empirical)\s+formula|abbreviation|acronym|initials)\b/i;

/**
 * The question asks for a form of a word, unless it only describes one ("What term describes a
 * verb form like 'was eaten'?" asks for a term): a form named after "a"/"an", and not "of" a word,
 * is an example the question gives, not the form it asks for (tuned on G).
 */
function formAsked(statement: string): boolean {
  // ("Give a noun form of 'decide'" still asks for one: the form is "of" a word.)
  return [...statement.matchAll(new RegExp(FORM_QUESTION.source, 'gi'))].some((m) => !/\b(?:a|an)\s+$/i.test(statement.slice(0, m.index)) || /^\s+of\b/i.test(statement.slice(m.index + m[0].length)));
}

// ---- matching ---------------------------------------------------------------------------------

/** How a reference word is matched by an answer word, or null. `strict`: only the same word. */
function wordMatch(ref: string, user: string, strict: boolean, expected?: Synset[]): string | null {
  if (ref === user) return 'exact';
  // "Quran" for "Qur'an", "Mohs" for "Moh's": the same letters without an apostrophe (tuned on D).
  if (/['’]/.test(ref + user) && ref.replace(/['’]/g, '') === user.replace(/['’]/g, '')) return 'exact';
  // British and American spellings of one word: "organisation", "haemoglobin", "behaviour" (tuned on D).
  if (ref.length >= 5 && user.length >= 5 && americanSpelling(ref) === americanSpelling(user)) return 'exact';
  const rn = numberFromWords(ref);
  const un = numberFromWords(user);
  if ((rn !== null || /^\d+$/.test(ref)) && (un !== null || /^\d+$/.test(user))) return (rn ?? Number(ref)) === (un ?? Number(user)) ? 'number' : null;
  if (strict) return null;
  if (antonymOf(ref, user)) return null;
  if (!irregular(ref) && !irregular(user)) {
    const rl = lemmas(ref);
    for (const l of lemmas(user)) if (rl.has(l)) return 'form';
  }
  // Derivationally related (evaporate / evaporation) and synonyms of any sense.
  for (const s of closeSenses(ref, expected)) if (hasWord(s, user) || [...lemmas(user)].some((l) => hasWord(s, l))) return 'synonym';
  for (const s of expected ?? senses(ref)) for (const d of related(s, ['+'])) if ([...lemmas(user)].some((l) => hasWord(d, l))) return 'related form';
  // An adjective and the noun it pertains to: "sun" for "solar", "recursive" for "recursion".
  if (pertains(user, ref) || pertains(ref, user)) return 'related form';
  // A slip of spelling is a non-word; a real word (increase for decrease) is another word.
  // A prefix added or dropped ("denormalisation", "nonpolar") makes another word, often the opposite: no slip (tuned on G).
  if (!/\d/.test(user) && isSlip(ref, user) && !isWord(user) && !prefixed(ref, user)) return 'spelling';
  return null;
}

/** Prefixes that make another word of a word (its opposite, its undoing, its lack, its degree). */
const PREFIXES = ['de', 'dis', 'un', 'non', 'in', 'im', 'il', 'ir', 'anti', 'counter', 'mis', 'a', 'over', 'under', 'hyper', 'hypo', 'pre', 'post', 'sub', 'super', 'inter', 'intra', 'endo', 'exo', 'homo', 'hetero', 'co'];

/** One word is the other with one of PREFIXES before it (hyphen or not). */
function prefixed(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const head = long.slice(0, long.length - short.length).replace(/-$/, '');
  return long.endsWith(short) && PREFIXES.includes(head);
}

/** The stem of a word without one of PREFIXES (the longest that leaves four letters), or the word. */
function unprefixed(w: string): { prefix: string; stem: string } {
  const p = PREFIXES.filter((x) => w.startsWith(x) && w.length - x.length >= 4).sort((a, b) => b.length - a.length)[0] ?? '';
  return { prefix: p, stem: w.slice(p.length).replace(/^-/, '') };
}

/**
 * A one-word answer that is the one-word reference with its prefix changed, added or dropped
 * ("underfitting" / "overfitting", "codominant" / "dominant", "denormalisation"): another word.
 */
function prefixChanged(answer: string, reference: string): boolean {
  const [a, r] = [termWords(answer), termWords(reference)];
  if (a.length !== 1 || r.length !== 1 || a[0]!.w === r[0]!.w) return false;
  if (prefixed(a[0]!.w, r[0]!.w)) return true;
  const [pa, pr] = [unprefixed(a[0]!.w), unprefixed(r[0]!.w)];
  return pa.prefix !== pr.prefix && pa.prefix !== '' && pr.prefix !== '' && pa.stem === pr.stem;
}

/** The reference's words with one of them swapped for its antonym ("active voice" for "passive voice"): another term. */
function antonymSwapped(answer: string, alt: Alternative): boolean {
  const words = contentWords(wordsOf(answer));
  if (alt.content.length < 2 || words.length !== alt.content.length) return false;
  const differ = alt.content.map((r, i) => [r, words[i]!] as const).filter(([r, a]) => r.w !== a.w && ![...lemmas(a.w)].some((l) => lemmas(r.w).has(l)));
  return differ.length === 1 && antonymOf(differ[0]![0].w, differ[0]![1].w);
}

interface Alternative {
  text: string;
  words: Word[];
  content: Word[];
  /** The content words an answer must give (those the question already says may be left out). */
  required: Word[];
  /** The senses of each content word the question is about. */
  wordSenses: Map<string, Synset[]>;
  /** Written as a name: first and last word capitalised. */
  name: boolean;
  /** The last word, when alone it names the same person ("Newton" for "Isaac Newton"). */
  surname: string | null;
  senses: Synset[];
}

/** WordNet's lexicographer file of people (noun.person). */
const PERSON_FILE = 18;

/** Senses of a part of speech kept when the question does not tell which is meant (WordNet lists the frequent first). */
const FREQUENT_SENSES = MATCH.frequentSenses;

/** The first FREQUENT_SENSES senses of each part of speech: "digest" is not "support" by their sense "tolerate". */
function frequent(all: Synset[]): Synset[] {
  const seen = new Map<string, number>();
  return all.filter((s) => {
    const n = (seen.get(s.pos) ?? 0) + 1;
    seen.set(s.pos, n);
    return n <= FREQUENT_SENSES;
  });
}

/**
 * The senses of the reference the question is about (a simplified Lesk): those whose definition
 * or hypernyms share most words with the question. "Respiration" in a question about energy
 * from glucose is cellular respiration, not breathing.
 */
function expectedSenses(all: Synset[], qWords: Set<string>): Synset[] {
  if (all.length <= 1) return all;
  if (qWords.size === 0) return frequent(all);
  const score = (s: Synset) => {
    const text = [s.definition, ...related(s, ['@', '@i']).map((h) => `${h.words.join(' ')} ${h.definition}`)].join(' ');
    return new Set(contentWords(wordsOf(text)).flatMap((x) => [...lemmas(x.w)]).filter((w) => qWords.has(w))).size;
  };
  const scored = all.map((s) => ({ s, n: score(s) }));
  const best = Math.max(...scored.map((x) => x.n));
  return best === 0 ? frequent(all) : scored.filter((x) => x.n === best).map((x) => x.s);
}

function alternative(text: string, qWords: Set<string>, qText = ''): Alternative {
  const words = wordsOf(text);
  let content = contentWords(words);
  // Words the question already says may be left out ("chemical" for "chemical energy" when asked what kind of energy).
  const own = content.filter((x) => ![...lemmas(x.w)].some((l) => qWords.has(l)));
  const optional = own.length > 0 && own.length < content.length ? content.filter((x) => !own.includes(x)) : [];
  content = content.length ? content : words;
  const name = content.length >= 2 && /^[A-Z]/.test(content[0].raw) && /^[A-Z]/.test(content[content.length - 1].raw);
  let phrase = content.map((x) => x.w).join(' ');
  // "Qur'an" is WordNet's "Quran": a name WordNet knows only without its apostrophe (tuned on D).
  if (/['’]/.test(phrase) && lookup(phrase).length === 0 && lookup(phrase.replace(/['’]/g, '')).length > 0) phrase = phrase.replace(/['’]/g, '');
  const wordSenses = new Map(content.map((x) => [x.w, expectedSenses(senses(x.w), qWords)] as const));
  // "Planet" alone is not "Red Planet": a surname stands for a person (WordNet's, when it knows the
  // name), and a word the question says ("a kind of planet") is no surname.
  const last = content[content.length - 1]!.w;
  const known = lookup(phrase);
  const person = known.length === 0 || known.some((o) => synset(o).lexFile === PERSON_FILE);
  const surname = name && person && ![...lemmas(last)].some((l) => qWords.has(l)) ? last : null;
  // An acronym is not inflected: "HTTPS" is not the plural of "HTTP"; only senses that spell it count.
  const spelled = ACRONYM.test(content.map((x) => x.raw).join(' ')) ? senses(phrase).filter((s) => hasWord(s, phrase)) : senses(phrase);
  // "la bibliothèque", "der Hund" asked as a word of another language: the article may be left out.
  const article = content.length > 1 && FOREIGN_ARTICLES.has(content[0]!.w) && FOREIGN_WORD_QUESTION.test(qText) ? content.slice(1) : null;
  return { text, words, content, required: article ?? (optional.length ? own : content), name, surname, senses: expectedSenses(spelled, qWords), wordSenses };
}

/** Ways of matching that are weaker evidence than the term itself. */
const WEAK = new Set(['synonym', 'related form', 'spelling', 'another name for it in a rarer sense']);

/** How a match through a reference's rarer sense is told (a grade it decides is `low`). */
const RARE_NAME = 'another name for it in a rarer sense';

/** Written in capitals ("HTTPS", "DNA", "RAM"): an acronym, read only as written. */
const ACRONYM = /^[A-Z][A-Z0-9]+$/;

/** Articles of other languages a student may leave out of a word asked in that language. */
const FOREIGN_ARTICLES = new Set(['la', 'le', 'les', "l'", 'el', 'los', 'las', 'der', 'die', 'das', 'il', 'lo', 'gli', 'un', 'une', 'ein', 'eine', 'una', 'uno', 'het', 'de']);
const FOREIGN_WORD_QUESTION = /\b(?:French|German|Spanish|Italian|Portuguese|Dutch|Latin|Catalan)\s+(?:word|noun|term|for)\b|\bin\s+(?:French|German|Spanish|Italian|Portuguese|Dutch)\b/i;

/** "H2O (water)", "Paris / Lutetia", "the Nile or the Amazon (accept either)". */
function alternatives(reference: string, qWords: Set<string>, qText = ''): Alternative[] {
  const accept = [...reference.matchAll(/\((?:also )?(?:accept|or)[:\s]+([^)]*)\)/gi)].flatMap((m) => m[1].split(/,|\bor\b|\//));
  const main = reference.replace(/\((?:also )?(?:accept|or)[:\s]+[^)]*\)/gi, ' ');
  const paren = [...main.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]);
  const bare = main.replace(/\([^)]*\)/g, ' ');
  // "carbohydrate, protein or fat": a comma list ending in "or" is alternatives too (tuned on D).
  const commaList = /,[^,]+\s+or\s+[^,]+$/i.test(bare);
  const parts = bare
    .split(commaList ? /\s+\/\s+|\s*[;,]\s*|\s+or\s+/i : /\s+\/\s+|\s*;\s*|\s+or\s+/i)
    .concat(paren, accept)
    .map((p) => p.trim())
    .filter((p) => wordsOf(p).length > 0);
  // A formula in the reference also stands for its name ("NaCl": sodium chloride).
  const named = parts.flatMap((p) => [p, ...formulaNames(p.trim())]);
  return named.map((p) => alternative(p, qWords, qText));
}

function findMatches(alt: Alternative, sts: Statement[], strict: boolean): Match[] {
  const out: Match[] = [];
  sts.forEach((st, si) => {
    const ws = st.words;
    // The same thing by another name WordNet knows: CO2, H2O, Shakespeare, Washington.
    if (!strict && alt.senses.length > 0) {
      const want = new Set(alt.senses.map((s) => `${s.pos}:${s.offset}`));
      for (let n = Math.min(4, ws.length); n >= 1; n--) {
        for (let i = 0; i + n <= ws.length; i++) {
          const gram = ws.slice(i, i + n).map((x) => x.w);
          if (gram.every((g) => FILLER.has(g))) continue;
          // "thigh bone" is WordNet's "thighbone": two words also read as one.
          const shared = [gram.join(' '), ...(n === 2 ? [gram.join('')] : [])].flatMap((g) => senses(g).filter((s) => want.has(`${s.pos}:${s.offset}`)));
          if (!shared.length) continue;
          const same = n === alt.content.length && gram.join(' ') === alt.content.map((x) => x.w).join(' ');
          // Another name through a sense that is not the reference's first ("common law" is "precedent" only in law's sense of it): a WordNet link of a rarer sense.
          const first = new Set(POSES.map((p) => senses(alt.content.map((x) => x.w).join(' '), [p])[0]).filter((x): x is Synset => !!x).map((x) => `${x.pos}:${x.offset}`));
          // The answer's word in a rarer sense of its own ("packaging" is first the business of packing, a
          // name of "promotion" only in a later sense) may mean something else: also a rarer sense (tuned on I).
          const own = new Set(POSES.map((p) => senses(gram.join(' '), [p])[0] ?? (n === 2 ? senses(gram.join(''), [p])[0] : undefined)).filter((x): x is Synset => !!x).map((x) => `${x.pos}:${x.offset}`));
          const rare = !shared.some((x) => first.has(`${x.pos}:${x.offset}`) && own.has(`${x.pos}:${x.offset}`));
          out.push({ statement: si, start: i, end: i + n, how: same ? 'exact' : rare ? RARE_NAME : 'another name for the same thing' });
        }
      }
    }
    // A chemical formula for the substance: O2, NaCl, CaCl2.
    const wanted = alt.content.map((x) => x.w).join(' ');
    ws.forEach((x, i) => {
      if (formulaNames(x.raw).includes(wanted)) out.push({ statement: si, start: i, end: i + 1, how: 'chemical formula' });
    });
    // Word by word, close together; in a name, a slip of spelling even when it makes another word (Austin for Austen).
    for (const need of alt.required === alt.content ? [alt.content] : [alt.content, alt.required]) {
      const hits: { i: number; end: number; how: string }[] = [];
      for (const cw of need) {
        let found: { i: number; end: number; how: string } | null = null;
        for (let i = 0; i < ws.length && !found; i++) {
          const how = wordMatch(cw.w, ws[i].w, strict || ACRONYM.test(cw.raw) || ACRONYM.test(ws[i].raw), alt.wordSenses.get(cw.w)) ?? (alt.name && hits.length > 0 && isSlip(cw.w, ws[i].w) ? 'spelling' : null);
          if (how) found = { i, end: i + 1, how };
          // One word written as two: "Hyper Text" for "HyperText", "slow twitch" for "slow-twitch".
          else if (i + 1 < ws.length && !strict && [ws[i].w + ws[i + 1].w, `${ws[i].w}-${ws[i + 1].w}`].includes(cw.w)) found = { i, end: i + 2, how: 'exact' };
        }
        if (!found) break;
        hits.push(found);
      }
      const inOrder = !ORDERED.test(alt.text) || hits.every((h, k) => k === 0 || h.i > hits[k - 1]!.i);
      if (hits.length === need.length && hits.length > 0 && inOrder) {
        const start = Math.min(...hits.map((h) => h.i));
        const end = Math.max(...hits.map((h) => h.end));
        if (end - start <= need.length * 2 + 2) out.push({ statement: si, start, end, how: hits.find((h) => h.how !== 'exact')?.how ?? 'exact' });
        break;
      }
    }
    // A surname for a full name: "Newton" for "Isaac Newton" (spelling slips allowed: "Shakespear").
    if (!strict && alt.surname) {
      const last = alt.surname;
      ws.forEach((x, i) => {
        if (x.w === last || (isSlip(last, x.w) && !isWord(x.w))) out.push({ statement: si, start: i, end: i + 1, how: x.w === last ? 'surname' : 'surname, allowing for spelling' });
      });
    }
    // A kind of both words of a two-word reference: "sunlight" is light, and it is energy.
    if (!strict && alt.content.length === 2 && alt.senses.length === 0) {
      const [m, h] = alt.content.map((x) => new Set(senses(x.w, ['noun']).map((s) => `noun:${s.offset}`)));
      ws.forEach((x, i) => {
        // The word's most frequent sense only: "moon" is a body in the sky before it is moonlight.
        const s = senses(x.w, ['noun'])[0];
        if (s && [...hypernymsWithin(s, 1)].some((k) => m.has(k)) && [...hypernymsWithin(s, 8)].some((k) => h.has(k))) out.push({ statement: si, start: i, end: i + 1, how: `a kind of ${alt.text}` });
      });
    }
  });
  return out;
}

/** A name that runs on past the reference's words ("George Washington Carver"). */
function longerName(alt: Alternative, st: Statement, m: Match, qWords: Set<string>): string | null {
  if (!alt.name && !(alt.content.length === 1 && /^[A-Z]/.test(alt.content[0].raw))) {
    // "subthalamic nucleus" for "nucleus": a longer WordNet term for another thing.
    // "igneous rock" for "igneous" when the question asks what type of rock: the question's words complete it.
    const term = longerTerm(
      alt.content.map((x) => x.w),
      st.words.slice(Math.max(0, m.start - 3), m.end + 3).map((x) => x.w),
      (w) => [...lemmas(w)].some((l) => qWords.has(l)),
    );
    return term;
  }
  // Particles of a name are passed over: "Theo van Gogh" has another first name than "Vincent van Gogh".
  let before = m.start - 1;
  while (before > 0 && PARTICLES.has(st.words[before].w)) before--;
  let after = m.end;
  while (after < st.words.length - 1 && PARTICLES.has(st.words[after].w)) after++;
  const next = st.words[after];
  const prev = st.words[before];
  const isNamePart = (x: Word | undefined) => !!x && /^[A-Z][a-z]/.test(x.raw) && !TITLES.has(x.w) && !qWords.has(x.w) && !FILLER.has(x.w);
  const spanWords = new Set(st.words.slice(m.start, m.end).map((x) => x.w));
  const refWords = new Set(alt.content.map((x) => x.w));
  const said = (from: number, to: number) => st.words.slice(from, to).map((x) => x.raw).join(' ');
  if (isNamePart(next) && !refWords.has(next.w)) return said(m.start, after + 1);
  // A different first name before the surname: "Pierre Curie" for "Marie Curie", "Louis Armstrong" for "Neil Armstrong".
  if (alt.name && isNamePart(prev) && !refWords.has(prev.w) && !spanWords.has(alt.content[0].w)) return said(before, m.end);
  // A first name followed by another surname: "Leonardo DiCaprio" for "Leonardo da Vinci".
  if (alt.name && m.end - m.start === 1 && st.words[m.start].w === alt.content[0].w && isNamePart(next) && !refWords.has(next.w)) return said(m.start, after + 1);
  return null;
}

/** Another thing of the same kind as the reference, named in an asserted statement ("Mars or Jupiter"). */
function rival(alt: Alternative, sts: Statement[], matched: Set<string>, qWords: Set<string>, others: Alternative[] = []): string | null {
  // Another of the reference's own alternatives is no rival: "carbohydrate, protein" for "carbohydrate, protein or fat".
  const otherWords = new Set(others.filter((o) => o !== alt).flatMap((o) => o.content.flatMap((x) => [...lemmas(x.w)])));
  const refSenses = alt.senses.filter((s) => s.pos === 'noun');
  if (refSenses.length === 0) return null;
  const own = new Set(refSenses.map((s) => s.offset));
  const kinds = new Set(refSenses.flatMap((s) => [...hypernymsWithin(s, 2)]));
  const ancestors = new Set(refSenses.flatMap((s) => [...hypernymsWithin(s, 12)]));
  for (const [si, st] of sts.entries()) {
    // A thing named in brackets after the answer ("hands (4 inches each)") glosses it: no rival, an unchecked claim (tuned on H).
    if (st.retracted || st.illustration || (st.bracketed && sts.slice(0, si).some((x, k) => x.words.some((_, wi) => matched.has(`${k}:${wi}`))))) continue;
    for (let n = 3; n >= 1; n--) {
      for (let i = 0; i + n <= st.words.length; i++) {
        const gram = st.words.slice(i, i + n);
        if (gram.some((x, k) => matched.has(`${si}:${i + k}`) || FILLER.has(x.w) || qWords.has(x.w))) continue;
        if (gram.every((x) => [...lemmas(x.w)].some((l) => otherWords.has(l)))) continue;
        if (denied(st, { statement: si, start: i, end: i + n, how: '' }, qWords)) continue;
        for (const s of senses(gram.map((x) => x.w).join(' '), ['noun'])) {
          if (own.has(s.offset) || ancestors.has(`noun:${s.offset}`)) continue;
          const up = hypernymsWithin(s, 12);
          if (refSenses.some((r) => up.has(`noun:${r.offset}`))) continue;
          if ([...hypernymsWithin(s, 2)].some((k) => kinds.has(k))) return gram.map((x) => x.raw).join(' ');
        }
      }
    }
  }
  return null;
}

/** "X or Y", "either X or Y": the answer does not choose. Returns the other choice. */
function hedged(st: Statement, m: Match, qWords: Set<string>): string | null {
  const ws = st.words;
  const other = (from: number, step: number) => {
    const got: string[] = [];
    for (let i = from; i >= 0 && i < ws.length && got.length < 4; i += step) {
      if (ws[i].w === 'or' || ws[i].w === 'either') break;
      if (!FILLER.has(ws[i].w)) got.push(ws[i].raw);
    }
    return got.length && got.some((g) => !qWords.has(g.toLowerCase())) ? (step < 0 ? got.reverse() : got).join(' ') : null;
  };
  let i = m.start - 1;
  while (i >= 0 && FILLER.has(ws[i].w) && ws[i].w !== 'or') i--;
  if (i >= 0 && ws[i].w === 'or') return other(i - 1, -1);
  let j = m.end;
  while (j < ws.length && FILLER.has(ws[j].w) && ws[j].w !== 'or') j++;
  if (j < ws.length && ws[j].w === 'or') return other(j + 1, 1);
  return null;
}

function antonymIn(alt: Alternative, sts: Statement[]): string | null {
  for (const st of sts) {
    if (st.retracted) continue;
    for (const x of st.words) for (const cw of alt.content) if (antonymOf(cw.w, x.w)) return `${x.raw} is the opposite of ${cw.raw}`;
  }
  return null;
}

/** Whether an adjective sense of `adjective` pertains to a noun (WordNet "\\" pointer) that `noun` is a form of. */
function pertains(adjective: string, noun: string): boolean {
  return senses(adjective, ['adj']).some((s) => related(s, ['\\']).some((d) => [...lemmas(noun)].some((l) => hasWord(d, l))));
}

/** Operations a reference may spell in words, and the symbols (or phrases) an answer may write them with. */
const OPERATORS: [string, RegExp][] = [
  ['minus', /\s[-−–]\s|(?<=[\p{L}\p{N}])\s*−\s*(?=[\p{L}\p{N}])|\btake\s+away\b/giu],
  ['plus', /\s\+\s|(?<=[\p{L}\p{N}])\+(?=[\p{L}\p{N}])/giu],
  ['times', /\s[×*]\s|(?<=[\p{L}\p{N}])\s*×\s*(?=[\p{L}\p{N}])|\bmultiplied\s+by\b/giu],
  ['divided by', /\s[÷/]\s|\bover\b(?=\s+\d)/giu],
];

/**
 * "220 - age" for "220 minus age": an operation the reference spells in words, written in the
 * answer as its symbol, is read as that word. Only then: elsewhere a dash is punctuation.
 */
function spelledOperators(answer: string, reference: string): string {
  let out = answer;
  for (const [word, symbol] of OPERATORS) if (new RegExp(`\\b${word}\\b`, 'i').test(reference)) out = out.replace(symbol, ` ${word} `);
  return out;
}

/** A reference that spells a non-commutative operation: its words must come in its order ("age - 220" is not "220 minus age"). */
const ORDERED = /\b(?:minus|divided\s+by|over|to\s+the\s+power)\b/i;

/** True for references this grader reads: a few words, not a sentence or a list of points. */
export function isShortReference(reference: string): boolean {
  const t = reference.trim();
  if (/[.!?;]\s+\S/.test(t) || /\n/.test(t)) return false;
  return contentWords(wordsOf(t.replace(/\([^)]*\)/g, ' '))).length <= 5;
}

/**
 * `among`: the reference is one of several things the answer lists (a rubric's "glucose and
 * oxygen"), so other things of its kind beside it are not rivals and "or" is not a hedge.
 * `namesOnly`: only the same words or another name count (a formula, a surname, a number in
 * words), not a synonym or a spelling slip.
 */
export function gradeShortAnswer(userAnswer: string, reference: string, statement: string, opts: { among?: boolean; namesOnly?: boolean } = {}): GradeResult {
  reference = plainChange(reference);
  const sts = statements(plainChange(spelledOperators(userAnswer, reference)));
  const qWords = questionWords(statement);
  const strict = formAsked(statement);
  const fail = (why: string, sure = true): GradeResult => ({ score: 0, max_score: 1, method: 'rubric', met: [], missed: [reference], explanation: `${why} The expected answer is ${reference}.`, confidence: sure ? 'high' : 'low', needs_review: !sure });
  if (sts.length === 0) return fail(userAnswer.trim() ? `The answer has no word or number to read ("${userAnswer.trim().slice(0, 40)}").` : 'No answer was given.');

  // Numbers in a reason given after the term ("the 400 g jar because it is 0.45p per gram") are the
  // reason's, not the term's: numbered terms are read before it (tuned on G).
  const termPart = opts.among ? userAnswer : userAnswer.split(REASON)[0]!;
  let deniedText: string | null = null;
  let longerFail: GradeResult | null = null;
  const alts = alternatives(reference, qWords, statement);
  // "J. M. Keynes" for "John Maynard Keynes": a person's given names as their initials, in order, and
  // the surname as written, is the name (tuned on G).
  if (!opts.among && initialledName(userAnswer, reference)) return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer gives ${reference} with the given names as initials.`, confidence: 'high', needs_review: false };
  // "greenbelt", "haute-couture", "persona non-grata" for "green belt", "haute couture", "persona non
  // grata": the reference's words joined or hyphenated, letter for letter, are the term (tuned on H).
  // Words only: a reference or an answer with a digit is a numbered term ("Apollo 11"), not this.
  const joined = alts.find((a) => /[\s-]/.test(a.text.trim()) && !/\d/.test(a.text + userAnswer) && folded(userAnswer) === folded(a.text) && folded(a.text).length >= CONFIDENCE.sureSlipLength);
  if (!opts.among && joined) return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer gives ${joined.text}, its words joined or hyphenated.`, confidence: 'high', needs_review: false };
  for (const alt of alts) {
    const matches = findMatches(alt, sts, strict || irregular(alt.content[0]?.w ?? ''));
    // A reference that is itself a denial ("does not dissolve") is met by a denial.
    const refNegated = alt.words.some((x) => NEGATIONS.has(x.w));
    const asserted = matches.filter((m) => !sts[m.statement].retracted && denied(sts[m.statement], m, qWords) === refNegated);
    const negated = matches.filter((m) => !sts[m.statement].retracted && denied(sts[m.statement], m, qWords) !== refNegated);
    if (negated.length) deniedText = sts[negated[0].statement].words.map((x) => x.raw).join(' ');
    if (asserted.length === 0) continue;
    const longer = asserted.map((m) => longerName(alt, sts[m.statement], m, qWords)).find((x) => x);
    // Another alternative may be that longer name ("biceps brachii" for "biceps (biceps brachii)"): all are tried first.
    if (longer && asserted.every((m) => longerName(alt, sts[m.statement], m, qWords))) {
      longerFail ??= fail(`"${longer}" names someone or something else than ${alt.text}.`, false);
      continue;
    }
    if (negated.some((n) => n.statement > Math.max(...asserted.map((a) => a.statement)))) return fail(`The answer gives ${alt.text} and then denies it.`);
    const matched = new Set(matches.flatMap((m) => Array.from({ length: m.end - m.start }, (_, k) => `${m.statement}:${m.start + k}`)));
    const hedge = opts.among ? null : asserted.map((m) => hedged(sts[m.statement], m, qWords)).find((x) => x);
    if (hedge) return fail(`The answer hedges between ${alt.text} and ${hedge}.`);
    const other = opts.among ? null : rival(alt, sts, matched, qWords, alts);
    if (other) return fail(`The answer also gives ${other}, another answer of the same kind, so it does not commit to ${alt.text}.`, false);
    const opposite = antonymIn(alt, sts);
    if (opposite) return fail(`The answer contradicts itself: ${opposite}.`, false);
    const added = misattributedSuperlative(userAnswer, alt.senses.filter((s) => s.pos === 'noun'));
    if (added) return fail(`The answer adds a claim that is not true of ${alt.text}: ${added}.`);
    // A numbered term ("Type I error", "Phase 2"): another number is another term, two numbers a hedge (tuned on E).
    const numbers = numberedTerm(termPart, alt.text, statement);
    if (numbers === 'other') return fail(`The answer numbers it differently from ${alt.text}.`);
    // A number's sign is part of it: "(2, 0)" is not "(−2, 0)" (tuned on I).
    const sign = signChanged(termPart, alt.text);
    if (sign) return fail(`The answer gives ${sign}.`);
    // The strongest of the ways the answer gives it: "stacks" is a form of "stack" before it is another name in a rarer sense.
    const how = asserted.map((m) => m.how).sort((a, b) => Number(WEAK.has(a)) - Number(WEAK.has(b)))[0]!;
    if (opts.namesOnly && /^(?:synonym|related form|spelling)$/.test(how)) continue;
    // An exact, aliased, numeric or inflected match is checkable; a WordNet link (synonym, related
    // form) may be of a rare sense, a one-letter slip may be another word ("C minor"), and words
    // beyond the term ("Tolstoy, who also wrote ...") are claims the grader did not check.
    // A slip of more than CONFIDENCE.sureSlipEdits letters may be another word WordNet does not know
    // ("Bundesrat" for "Bundestag"): not sure either (tuned on G).
    const slip = how === 'spelling' && (Math.max(...alt.content.map((x) => x.w.length)) < CONFIDENCE.sureSlipLength || wideSlip(sts, matched, alt));
    // A word of the reference that the question also says ("cold" in "cold front" when the question
    // speaks of cold air) may be left out; then the answer may name a wider or a neighbouring
    // thing ("a front", "warm front"): not sure (tuned on E).
    // Only a modifier counts (the head noun the question names, "operant" for "operant conditioning"
    // asked what type of conditioning, may go), only when the answer says the reference's own words
    // (another name, "ascorbic acid" for "vitamin C", says none), and numbers are numberedTerm's.
    const head = alt.content[alt.content.length - 1];
    // (A foreign article left out, "la" of "la casa", is no such word: the question does not say it.)
    const modifiers = alt.content.filter((c) => !alt.required.includes(c) && c !== head && numeralsOf(c.raw).size === 0 && [...lemmas(c.w)].some((l) => qWords.has(l)));
    const leftOut = modifiers.some((c) => !saidWord(sts, c.w)) && alt.required.some((c) => saidWord(sts, c.w));
    // Another name for it made of the question's own words ("thunder cloud" asked about thunderstorms and clouds) may be a description, not the term asked (tuned on E).
    const echoed = how !== 'exact' && echoesQuestion(userAnswer, statement);
    const sure = numbers !== 'missing' && !leftOut && !echoed && how !== 'synonym' && how !== 'related form' && how !== RARE_NAME && !slip && uncheckedWords(sts, matched, `${reference} ${alt.text} ${APART.test(userAnswer) ? glossOf(alt) : ''}`, qWords).length === 0;
    return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer gives ${alt.text}${how === 'exact' ? '' : ` (${how})`}.`, confidence: sure ? 'high' : 'low', needs_review: !sure };
  }
  if (longerFail) return longerFail;
  if (deniedText) return fail(`The answer denies it ("${deniedText}").`);
  // An antonym WordNet gives ("deflation", "it falls"), said alone and not denied, is a sure refusal.
  // Only the antonym: a word beside it ("negative inflation") may turn it back.
  const plain = contentWords(wordsOf(userAnswer)).length === 1 && !wordsOf(userAnswer).some((x) => NEGATIONS.has(x.w));
  for (const alt of alts) {
    const opposite = antonymIn(alt, sts);
    if (opposite) return fail(`${opposite[0].toUpperCase()}${opposite.slice(1)}.`, plain || antonymSwapped(userAnswer, alt));
  }
  // "type 2" for "Type 1 diabetes", "the second law" for "Newton's third law": the reference's words with another number (tuned on E).
  const renumbered = alts.find((a) => numberedTerm(termPart, a.text, statement) === 'other' && sameWordsBut(userAnswer, a.text, statement));
  if (renumbered) return fail(`The answer numbers it differently from ${renumbered.text}.`);
  if (strict) return fail('The question asks for a particular form of the word, and the answer does not give it.');
  // "the theory of knowledge" for epistemology ("the philosophical theory of knowledge"): WordNet's definition said, low (tuned on D).
  const defined = alts.find((a) => saysDefinition(userAnswer, a, qWords));
  if (defined) return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer gives what ${defined.text} is (WordNet's definition of it); please review.`, confidence: 'low', needs_review: true };
    // "WHO" for "the World Health Organization": the initials of every word of the reference (tuned on D).
  const initials = alts.find((a) => initialsOf(userAnswer, a));
  if (initials) return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer gives ${initials.text} by its initials.`, confidence: 'high', needs_review: false };
  // An acronym reference ("SAS") written with points ("S.A.S."): the same letters, sure; spelt out in words whose
  // initials it is ("side-angle-side"): accepted `low`, another expansion may share the initials (tuned on I).
  const dotted = alts.find((a) => ACRONYM.test(a.text.trim()) && /\./.test(userAnswer) && userAnswer.trim().replace(/[.\s]/g, '') === a.text.trim());
  if (dotted) return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer gives ${dotted.text} with points between its letters.`, confidence: 'high', needs_review: false };
  const spelt = alts.find((a) => expansionOf(userAnswer, a.text.trim()));
  if (spelt) return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer spells out ${spelt.text} in words; please review.`, confidence: 'low', needs_review: true };
  // None of the reference's words: sure only when both are names or both numbers (Paris is not
  // London); another common word may be a paraphrase, a formula or a notation the grader cannot read.
  const kind = termKind(userAnswer);
  const short = contentWords(wordsOf(userAnswer)).length <= CONFIDENCE.sureRefusalWords;
  // An acronym's expansion ("HTTP Secure" for HTTPS) is a name the grader cannot read: two names are sure only when both are acronyms or neither is.
  const acronymRef = ACRONYM.test(reference.trim());
  // Two spellings of one name ("Koran" / "Qur'an", "Shabbos" / "Shabbat", "Thésée" / "Theseus") are no sure refusal (tuned on D).
  // A one-word name WordNet does not know may be another name of the reference (an endonym, a
  // transliteration, a former name: "Chomolungma", "Kopernik"): no sure refusal (tuned on F).
  const names = kind !== 'word' && kind === termKind(reference) && (!acronymRef || ACRONYM.test(userAnswer.trim())) && (kind === 'number' || !unknownOneWordName(userAnswer));
  const near = alts.some((a) => nearSpelling(userAnswer, a.text));
  // "underfitting" for "overfitting", "denormalisation" for "normalisation": the reference's word with
  // its prefix changed, added or dropped, is another word (tuned on G).
  const reprefixed = alts.some((a) => prefixChanged(userAnswer, a.text));
  return fail('The answer does not give it.', short && (reprefixed || (!near && (names || siblings(userAnswer, reference) || wider(userAnswer, alts) || clearlyOther(userAnswer, alts) || swappedWord(userAnswer, alts)))));
}

/**
 * Another term made by swapping one of the reference's words: "read access memory" for "random
 * access memory", "sunk cost" for "opportunity cost". The answer has the reference's words in its
 * order but one, a noun or adjective of the reference's swapped for a word WordNet knows, no slip of spelling and not linked to the
 * reference's word (a synonym swapped in stays `low`). Tuned on main, A, B, C.
 */
function swappedWord(answer: string, alts: Alternative[]): boolean {
  const words = contentWords(wordsOf(answer));
  // A linking word the reference lacks ("the front of the coin" for "the front side") makes a
  // description, not another term of the reference's shape (tuned on F).
  const linking = (t: string) => wordsOf(t).filter((x) => LINKING.has(x.w)).map((x) => x.w);
  const own = linking(answer);
  const same = (a: Word, b: Word) => [...lemmas(a.w)].some((l) => lemmas(b.w).has(l));
  return alts.some((alt) => {
    const ref = alt.content;
    if (ref.length < 2 || words.length !== ref.length) return false;
    if (own.some((w) => !linking(alt.text).includes(w))) return false;
    const differ = ref.map((r, i) => [r, words[i]!] as const).filter(([r, a]) => !same(r, a));
    if (differ.length !== 1) return false;
    const [r, a] = differ[0]!;
    // A name in the reference swapped for a common word ("shift cipher" for "Caesar cipher"): an
    // eponym's term often has a descriptive other name (tuned on F).
    if (/^\p{Lu}/u.test(r.raw) && !/^\p{Lu}/u.test(a.raw)) return false;
    // A swapped noun or adjective names another thing; a swapped verb ("pluck the day") may be a paraphrase,
    // and so may an action named by a verb's -ing form ("DNA fingerprinting" for "DNA profiling"; tuned on G).
    const action = (w: string) => /ing$/.test(w) && senses(w.replace(/ing$/, ''), ['verb']).length + senses(w.replace(/ing$/, 'e'), ['verb']).length > 0;
    if (action(r.w) && action(a.w)) return false;
    return senses(r.w, ['noun', 'adj']).length > 0 && isWord(a.w) && !isSlip(r.w, a.w) && !linked(senses(a.w), senses(r.w));
  });
}

/** Words that link a description's parts: a term of the reference's shape has none the reference lacks. */
const LINKING = new Set(['of', 'for', 'with', 'on', 'in', 'at', 'from', 'by', 'to', 'into', 'onto', 'over', 'under']);

/**
 * A name of one word (hyphens kept) that WordNet does not know and that is no acronym: it may be
 * another name of the reference, in another language or from another time. A name of several
 * words ("the Eightfold Path") or an acronym is read as another thing.
 */
function unknownOneWordName(text: string): boolean {
  const words = termWords(text);
  return words.length === 1 && !ACRONYM.test(words[0]!.raw) && senses(words[0]!.w).length === 0;
}

/** A term's words without its article: "full moon" keeps "full", which a list of filler words drops. */
function termWords(text: string): Word[] {
  const words = wordsOf(text);
  return words.filter((x, i) => !(i === 0 && /^(?:the|a|an)$/.test(x.w)));
}

/** A sense of a word or phrase as "pos:offset". */
const senseKey = (s: Synset) => `${s.pos}:${s.offset}`;

/** Senses of a term: of the whole phrase and of each content word. */
function termSenses(words: Word[]): Synset[] {
  return [...senses(words.map((x) => x.w).join(' ')), ...words.flatMap((x) => senses(x.w))];
}

/** Whether two sets of senses are linked in WordNet: one synset, a derivation, a similar sense, or one within CONFIDENCE.linkDepth hypernyms of the other. */
function linked(a: Synset[], b: Synset[]): boolean {
  const keys = (ss: Synset[]) => new Set(ss.map(senseKey));
  const [ak, bk] = [keys(a), keys(b)];
  const near = (from: Synset[], to: Set<string>) =>
    from.some((s) => to.has(senseKey(s)) || related(s, ['+', '\\', '^', '&']).some((d) => to.has(senseKey(d))) || [...hypernymsWithin(s, CONFIDENCE.linkDepth)].some((h) => to.has(h)));
  return near(a, bk) || near(b, ak);
}

/**
 * A refusal the grader can check: the answer is one term WordNet knows, the reference (one of its
 * alternatives) is too (as one term or word by word), they share no word or slip of spelling, and WordNet links none of their
 * senses (synonym, derivation, similar sense, hypernym or hyponym within CONFIDENCE.linkDepth):
 * "quota" is not "tariff", "recession" not "inflation". An answer WordNet does not know as one term
 * ("trias politica", "so that the jury is sure") may be a paraphrase and stays `low`.
 * Tuned on main, A, B, C.
 */
function clearlyOther(answer: string, alts: Alternative[]): boolean {
  const words = contentWords(wordsOf(answer));
  const term = termWords(answer);
  if (!words.length || senses(term.map((x) => x.w).join(' ')).length === 0) return false;
  const theirs = [...senses(term.map((x) => x.w).join(' ')), ...termSenses(words)];
  // The reference known as one term, or word by word ("separation of powers").
  const known = alts.filter((a) => a.content.length > 0 && (senses(a.content.map((x) => x.w).join(' ')).length > 0 || a.content.every((x) => isWord(x.w))));
  if (!known.length) return false;
  return alts.every((a) => {
    const shares = words.some((x) => a.content.some((r) => [...lemmas(x.w)].some((l) => lemmas(r.w).has(l)) || isSlip(r.w, x.w)));
    return !shares && !linked(theirs, termSenses(a.content));
  });
}

/**
 * Two terms WordNet files as different kinds of one thing (ribosome and mitochondrion are both
 * organelles; mitosis and meiosis both cell division): the answer names a sibling, surely not the
 * reference. Anything else refused (a formula, a notation, a paraphrase) may be the reference in
 * words the grader cannot read.
 */
function siblings(answer: string, reference: string): boolean {
  const head = (t: string) => termWords(t).map((x) => x.w).join(' ');
  const [a, r] = [senses(head(answer), ['noun']), senses(head(reference), ['noun'])];
  if (!a.length || !r.length) return false;
  const above = (ss: typeof a) => new Set(ss.slice(0, 2).flatMap((x) => [...hypernymsWithin(x, CONFIDENCE.siblingDepth)]));
  const ra = above(r);
  // An answer that is a kind of the reference ("chrysalis" for "pupa") is no sibling: a teacher may
  // accept the narrower term; no sure refusal. (The wider term, "a river" for the Danube, stays a
  // sure refusal: too general.) Tuned on G.
  const keys = (ss: typeof a) => new Set(ss.slice(0, 2).map((x) => `${x.pos}:${x.offset}`));
  const kindOf = (x: typeof a, y: typeof a) => x.slice(0, 2).some((s) => [...keys(y)].some((k) => hypernymsWithin(s, CONFIDENCE.linkDepth).has(k)));
  if (kindOf(a, r)) return false;
  return [...above(a)].some((h) => ra.has(h));
}

/**
 * Whether an answer word the match read as a slip of spelling is more than CONFIDENCE.sureSlipEdits
 * letters from every word of the reference: two letters wrong may make another word WordNet does not
 * know ("Bundesrat" for "Bundestag"). Tuned on G.
 */
function wideSlip(sts: Statement[], matched: Set<string>, alt: Alternative): boolean {
  return [...matched].some((key) => {
    const [st, i] = key.split(':').map(Number);
    const w = sts[st!]?.words[i!]?.w;
    if (!w || alt.content.some((c) => c.w === w || [...lemmas(w)].some((l) => lemmas(c.w).has(l)))) return false;
    return alt.content.some((c) => isSlip(c.w, w)) && !alt.content.some((c) => slipDistance(c.w, w) <= CONFIDENCE.sureSlipEdits);
  });
}

/** Edits between two words, a swap of two letters side by side counted as one ("barometre", "Sysiphus"). */
function slipDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The answer names a wider kind of the reference, within CONFIDENCE.widerDepth hypernym steps of
 * it, in words of its own ("bird" for "kingfisher", "white blood cells" for "B lymphocytes"): too
 * general, a sure refusal. An answer that keeps a word of the reference ("moraine" for "terminal
 * moraine") may be the term shortened, and is left to the other rules. Tuned on G.
 */
function wider(answer: string, alts: Alternative[]): boolean {
  const head = (t: string) => termWords(t).map((x) => x.w).join(' ');
  const a = senses(head(answer), ['noun']).slice(0, 2);
  if (!a.length) return false;
  const keys = new Set(a.map((x) => `${x.pos}:${x.offset}`));
  const words = contentWords(wordsOf(answer));
  return alts.some((alt) => {
    if (words.some((x) => alt.content.some((c) => c.w === x.w || [...lemmas(x.w)].some((l) => lemmas(c.w).has(l))))) return false;
    const r = senses(head(alt.text), ['noun']).slice(0, 2);
    return r.some((s) => [...hypernymsWithin(s, CONFIDENCE.widerDepth)].some((k) => keys.has(k)));
  });
}

/** "J. M. Keynes", "J.M. Keynes", "JM Keynes" for "John Maynard Keynes": every given name as its initial, in order, then the surname. */
function initialledName(answer: string, reference: string): boolean {
  const names = reference.trim().split(/\s+/);
  if (names.length < 2 || !names.every((n) => /^\p{Lu}\p{Ll}+$/u.test(n))) return false;
  const m = /^\s*((?:\p{Lu}\.?\s*){1,4})\s+(\p{Lu}\p{Ll}+)\s*\.?\s*$/u.exec(answer);
  if (!m) return false;
  const initials = m[1]!.replace(/[.\s]/g, '');
  return m[2] === names[names.length - 1] && initials === names.slice(0, -1).map((n) => n[0]).join('');
}

/** A capital letter alone names something (a key, a vitamin, a grade), even one the question says ("C minor" for the relative minor of C major). */
const LETTER_NAME = /^[B-HJ-Z]$/;

/** Words set apart from the term: a bracket, a comma, a colon or a dash between spaces. */
const APART = /[(,;:—–]|\s-\s/;

/**
 * What WordNet says the reference is (the definitions of its senses the question is about, and
 * of their direct hypernyms): words an answer adds from it ("rickets, a disease of children") say
 * what the term is, not a claim the grader cannot check. Tuned on main, A, B, C, D.
 */
function glossOf(alt: Alternative): string {
  // (Only words set apart from the term by a comma, bracket or dash, APART: "computer-aided manufacturing" is another term.)
  return alt.senses
    .filter((s) => s.pos === 'noun')
    .slice(0, 2)
    .flatMap((s) => [s.definition, ...related(s, ['@', '@i']).flatMap((h) => [h.words.join(' '), h.definition])])
    .join(' ')
    .replace(/_/g, ' ');
}

/** Words after a negation cue that it denies ("not veins", "not the vena cava"). */
const DENIED_WORDS = 3;

/** Whether the word at `at` is denied by a cue just before it, with no word of the matched term between them. */
function deniedAside(st: Statement, si: number, at: number, matched: Set<string>): boolean {
  return st.cues.some((c) => at > c && at - c <= DENIED_WORDS && !Array.from({ length: at - c - 1 }, (_, k) => c + 1 + k).some((i) => matched.has(`${si}:${i}`)));
}

/** Content words of the answer outside the matched term that are neither the reference's (any form) nor the question's: claims the grader did not check. */
function uncheckedWords(sts: Statement[], matched: Set<string>, reference: string, qWords: Set<string>): string[] {
  const own = new Set(contentWords(wordsOf(reference)).flatMap((x) => [x.w, ...lemmas(x.w)]));
  const ownNumbers = numeralsOf(reference);
  return sts.flatMap((st, si) =>
    st.retracted || st.illustration
      ? []
      : st.words
          // A capital letter alone names something ("C minor" for "A minor", where "A" read as an article).
          // A number beside the term ("talc, hardness 10") is a claim too, unless the reference or the question says it (tuned on H).
          .filter((x, wi) => !matched.has(`${si}:${wi}`) && (LETTER_NAME.test(x.raw) || /^\d/.test(x.raw) || (/[\p{L}]{3,}/u.test(x.w) && !FILLER.has(x.w) && !NEGATIONS.has(x.w))))
          // "arteries, not veins": a word denied right after a cue, outside the matched term, rules another answer out (tuned on D).
          .filter((x) => !deniedAside(st, si, st.words.indexOf(x), matched))
          // "I'd say …", "if I remember right", "I'm fairly sure": the two words after a first-person subject
          // are the student's stance, not a claim about the answer; a name or a number there still is (tuned on H).
          .filter((x) => !stance(st, st.words.indexOf(x)))
          .filter((x) => ![x.w, ...lemmas(x.w)].some((l) => own.has(l) || (qWords.has(l) && !LETTER_NAME.test(x.raw))))
          // The reference's own number in another writing ("type 1" for "type I") is the term's.
          .filter((x) => !/^\d/.test(x.raw) || !ownNumbers.has(Number(/^\d+/.exec(x.raw)![0])))
          .map((x) => x.raw),
  );
}

const FIRST_PERSON = new Set(['i', "i'm", "i'd", "i've", "i'll", 'im', 'id', 'ive']);
/** A word at most CONFIDENCE.stanceWords after a first-person subject, in lower case and without a digit. */
function stance(st: Statement, at: number): boolean {
  const x = st.words[at]!;
  if (x.raw !== x.raw.toLowerCase() || /\d/.test(x.raw)) return false;
  for (let k = 1; k <= CONFIDENCE.stanceWords; k++) if (at - k >= 0 && subjectI(st, at - k)) return true;
  return false;
}

/** The pronoun I as a clause's subject: a contraction (I'm, I'd), or "I" first or after a conjunction ("type I" is a numeral). */
function subjectI(st: Statement, at: number): boolean {
  const w = st.words[at]!.w;
  if (!FIRST_PERSON.has(w)) return false;
  return w !== 'i' || at === 0 || CONJUNCTIONS.has(st.words[at - 1]!.w);
}
const CONJUNCTIONS = new Set(['if', 'as', 'and', 'but', 'so', 'though', 'although', 'because', 'when', 'what', 'that', 'than']);

/**
 * A word in American spelling: -isation/-ise → -ization/-ize, -our → -or, -tre → -ter, and ae / oe
 * after a consonant → e ("haemoglobin", "oesophagus" → "esophagus"). Two words are one when both
 * spell the same this way.
 */
function americanSpelling(word: string): string {
  return word
    .replace(/is(ation|ations|e|es|ed|ing|er|ers)$/, 'iz$1')
    .replace(/our(s|ed|ing|ism|ist|ists|al|ite|ites|able)?$/, 'or$1')
    .replace(/our(ism|ist)/, 'or$1')
    .replace(/([^aeiou])tre(s)?$/, '$1ter$2')
    .replace(/^oe/, 'e')
    .replace(/([^aeiou])(?:ae|oe)(?=[^aeiou])/g, '$1e');
}

/** Letters only, without accents, apostrophes or an article: "Thésée" → "thesee". */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/^\s*(?:the|a|an)\s+/, '').replace(/[^a-z]/g, '');
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Two spellings of one name: folded, at most two letters apart, in names of four letters or
 * more, one of them unknown to WordNet (a transliteration); two terms WordNet knows apart
 * (mitosis, meiosis) stay a sure refusal. Tuned on D.
 */
function nearSpelling(answer: string, reference: string): boolean {
  const [a, r] = [folded(answer), folded(reference)];
  const term = (t: string) => isWord(t.trim().replace(/^(?:the|a|an)\s+/i, '').toLowerCase());
  return a.length >= 4 && r.length >= 4 && editDistance(a, r) <= 2 && !(term(answer) && term(reference));
}

/** Share of a definition's content words an answer must say to be read as that definition. */
const DEFINITION_SHARE = 2 / 3;
/** Definitions longer than this say more than a name: an answer of a few of their words is not them. */
const DEFINITION_MAX_WORDS = 4;

/**
 * The answer says WordNet's short definition of the reference: two content words or more, every
 * one of them but the question's (one at least) in the definition of a sense the question is about, and at
 * least DEFINITION_SHARE of that definition's content words. Tuned on main, A, B, C, D.
 */
function saysDefinition(answer: string, alt: Alternative, qWords: Set<string>): boolean {
  const all = contentWords(wordsOf(answer));
  const own = all.filter((x) => ![...lemmas(x.w)].some((l) => qWords.has(l)));
  if (all.length < 2 || own.length < 1) return false;
  return alt.senses.slice(0, 2).some((s) => {
    const def = contentWords(wordsOf(s.definition.split(/;/)[0]!));
    if (def.length < 2 || def.length > DEFINITION_MAX_WORDS) return false;
    const inDef = (x: Word) => def.some((d) => [...lemmas(x.w)].some((l) => lemmas(d.w).has(l)));
    const said = def.filter((d) => all.some((x) => [...lemmas(x.w)].some((l) => lemmas(d.w).has(l))));
    return own.every(inDef) && said.length / def.length >= DEFINITION_SHARE;
  });
}

/** Words an acronym may leave out ("Department of Health": DH or DOH). */
const ACRONYM_SKIP = new Set(['of', 'and', 'for', 'the', 'a', 'an', 'in', 'on', 'to', '&']);

/** An answer in capitals that is the initials of every word of an alternative of two words or more. */
function initialsOf(answer: string, alt: Alternative): boolean {
  const t = answer.trim().replace(/\./g, '');
  if (!ACRONYM.test(t) || alt.words.length < 2) return false;
  const words = alt.text.trim().split(/[\s-]+/).filter((w) => /\p{L}/u.test(w)).filter((w, i) => !(i === 0 && /^(?:the|a|an)$/i.test(w)));
  const all = words.map((w) => w[0]!.toUpperCase()).join('');
  const content = words.filter((w) => !ACRONYM_SKIP.has(w.toLowerCase())).map((w) => w[0]!.toUpperCase()).join('');
  return words.length >= 2 && (t === all || t === content);
}

/** Whether an acronym (two letters or more) is the initials of the answer's words ("side-angle-side", "Side, angle, side" for SAS). */
function expansionOf(answer: string, acronym: string): boolean {
  if (!ACRONYM.test(acronym) || /\d/.test(acronym)) return false;
  const words = answer.trim().split(/[\s,-]+/).filter((w) => /\p{L}/u.test(w)).filter((w, i) => !(i === 0 && /^(?:the|a|an)$/i.test(w)));
  if (words.length < 2 || words.some((w) => !/^\p{L}+$/u.test(w))) return false;
  const initials = (ws: string[]) => ws.map((w) => w[0]!.toUpperCase()).join('');
  return initials(words) === acronym || initials(words.filter((w) => !ACRONYM_SKIP.has(w.toLowerCase()))) === acronym;
}

/** A number, a name (every word capitalised) or a common word. */
function termKind(text: string): 'number' | 'name' | 'word' {
  const t = text.trim().replace(/^(?:the|a|an)\s+/i, '');
  if (/^[-+]?[\d\s.,/%:]+$/.test(t) && /\d/.test(t)) return 'number';
  const words = t.split(/\s+/).filter((w) => !/^(?:of|the|and|de|von|van|da|di|la|le|du)$/i.test(w));
  return words.length > 0 && words.every((w) => /^\p{Lu}/u.test(w)) && !/^\p{Lu}+\d/u.test(t) ? 'name' : 'word';
}

// ---- numbered terms and question words (tuned on E) -----------------------------------------------

const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6, vii: 7, viii: 8, ix: 9, x: 10, xi: 11, xii: 12 };
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10 };
/** "I" as a pronoun: followed by a verb of saying or being. */
const PRONOUN_I = /^(?:am|'m|think|thought|believe|guess|know|would|will|have|had|was|did|do|mean|said|say|feel|reckon|suppose|can|could|should)$/i;

/**
 * The numbers a text gives as numerals: digits ("2", "2nd"), number words and ordinals ("two",
 * "second") and roman numerals after a word ("Type II"; "I" only where it is no pronoun).
 */
export function numeralsOf(text: string): Set<number> {
  const out = new Set<number>();
  const tokens = [...text.matchAll(/[\p{L}\p{N}']+/gu)].map((m) => m[0]);
  tokens.forEach((t, i) => {
    const lower = t.toLowerCase();
    const digits = /^(\d+)(?:st|nd|rd|th)?$/i.exec(t);
    if (digits) out.add(Number(digits[1]));
    else if (NUMBER_WORDS[lower] !== undefined) out.add(NUMBER_WORDS[lower]!);
    else if (ROMAN[lower] !== undefined && i > 0 && /\p{L}/u.test(tokens[i - 1]!)) {
      // Upper case, or a lower-case numeral of two letters or more ("type ii"); "I" never before a verb, "v"/"x" only in capitals.
      const upper = t === t.toUpperCase();
      if (lower === 'i' && (!upper || PRONOUN_I.test(tokens[i + 1] ?? ''))) return;
      if ((upper && /^[IVX]+$/.test(t)) || (lower.length >= 2 && /^[ivx]+$/.test(lower))) out.add(ROMAN[lower]!);
    }
  });
  return out;
}

/**
 * A reference naming a numbered thing ("Type I error", "Phase 2 trial"): 'other' when the answer
 * gives a number the reference and the question do not (another term, or a hedge between two),
 * 'missing' when it gives none of the reference's, null when the reference has no number or is one.
 */
export function numberedTerm(answer: string, reference: string, question: string): 'other' | 'missing' | null {
  const ref = numeralsOf(reference);
  if (ref.size === 0 || !/\p{L}{2,}/u.test(reference.replace(/\b[IVX]+\b/g, ''))) return null;
  const asked = numeralsOf(question);
  const given = numeralsOf(answer);
  if ([...given].some((n) => !ref.has(n) && !asked.has(n))) return 'other';
  // A number the question says may be left out ("the noble truths" asked about four teachings).
  return [...ref].every((n) => given.has(n) || asked.has(n)) ? null : 'missing';
}

/** Numbers with their signs (a minus, hyphen or dash not after a letter or digit is a sign: "5–7" is a range). */
function signedNumbers(text: string): string[] {
  return [...text.matchAll(/(?<![\p{L}\d.,])([-−–]\s?)?(\d+(?:\.\d+)?)/gu)].map((m) => `${m[1] ? '-' : ''}${Number(m[2])}`);
}

/** A number of the reference given with the other sign and never with its own ("2" for "−2", "−3" for "3"), described, or null. */
export function signChanged(answer: string, reference: string): string | null {
  const given = new Set(signedNumbers(answer));
  for (const n of new Set(signedNumbers(reference))) {
    const flipped = n.startsWith('-') ? n.slice(1) : `-${n}`;
    if (n !== '0' && !given.has(n) && given.has(flipped)) return `${flipped.replace('-', '−')} where ${reference} has ${n.replace('-', '−')}`;
  }
  return null;
}

/** A reason given after an answer: "because …", "since …", "as it …", "due to …". */
const REASON = /\b(?:because|since|as (?:it|they|this|that)|due to|given that)\b/i;

/** Whether every content word of the answer but its numbers is a word of the reference or the question (any regular form). */
function sameWordsBut(answer: string, reference: string, question: string): boolean {
  const known = new Set([...wordsOf(reference), ...wordsOf(question)].flatMap((x) => [x.w, ...lemmas(x.w)]));
  const words = contentWords(wordsOf(answer)).filter((x) => numeralsOf(x.raw).size === 0 && !ROMAN[x.w]);
  return words.length > 0 && words.every((x) => known.has(x.w) || [...lemmas(x.w)].some((l) => known.has(l)));
}

/** Whether a word (any regular form) is said in a statement that is not taken back. */
function saidWord(sts: Statement[], word: string): boolean {
  const forms = lemmas(word);
  return sts.some((st) => !st.retracted && st.words.some((x) => x.w === word || [...lemmas(x.w)].some((l) => forms.has(l))));
}

/**
 * Whether every content word of the answer is a word of the question or a part or extension of one
 * ("thunder" in "thunderstorms"), of CONFIDENCE.echoLetters letters at least: an answer built from the question.
 */
export function echoesQuestion(answer: string, question: string): boolean {
  const q = wordsOf(question).map((x) => x.w).filter((w) => w.length >= CONFIDENCE.echoLetters);
  const words = contentWords(wordsOf(answer));
  return words.length > 0 && words.every((x) => x.w.length >= CONFIDENCE.echoLetters && q.some((w) => w.startsWith(x.w) || x.w.startsWith(w)));
}
