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
 * word, or a longer name of something else ("George Washington Carver").
 */
import lemmatizer from 'wink-lemmatizer';
import type { GradeResult } from '../types.ts';
import { lookup, synset, type Pos, type Synset } from '../lexicon/wordnet.ts';
import { readableText } from './accents.ts';
import { formulaNames } from './chem.ts';
import { longerTerm } from './longer-term.ts';
import { numberFromWords } from './number-words.ts';
import { misattributedSuperlative } from './superlative.ts';
import { isSlip, NEGATIONS, plainChange, STOPWORDS } from './text.ts';

const POSES: Pos[] = ['noun', 'verb', 'adj', 'adv'];
/** Words around an answer that say nothing about it. */
const FILLER = new Set([...STOPWORDS, 'think', 'believe', 'guess', 'maybe', 'probably', 'sure', 'pretty', 'called', 'known', 'named', 'yes', 'ok', 'okay', 'well', 'um', 'uh', 'sir', 'miss', 'please']);
/** A statement made only of these takes back what came before it. */
const RETRACT = new Set(['no', 'nope', 'wrong', 'wait', 'sorry', 'actually', 'oops', 'mean', 'i', 'scratch', 'that', 'not', 'oh', 'hmm', 'correction']);
/** Particles inside a name, between the first name and the surname ("Vincent van Gogh", "Leonardo da Vinci"). */
const PARTICLES = new Set(['van', 'de', 'da', 'von', 'der', 'den', 'des', 'le', 'la', 'du', 'di', 'del', 'della', 'dos', 'das', 'ter', 'ten', 'bin', 'ibn']);
const TITLES = new Set(['president', 'king', 'queen', 'sir', 'dame', 'saint', 'st', 'dr', 'doctor', 'mr', 'mrs', 'ms', 'lord', 'lady', 'general', 'emperor', 'empress', 'prince', 'princess', 'pope', 'professor', 'prof']);
// A symbol, formula or abbreviation asked for is that written form: "gold" is not the symbol Au.
const FORM_QUESTION = /\b(?:past tense|past participle|present participle|plural|singular|comparative|superlative|spell(?:ing|ed)?|conjugat\w*|(?:verb|noun|adjective) form|form of the (?:verb|word)|-ing form|third person|(?:chemical|element|atomic)\s+symbol|symbol\s+(?:for|of)\s+(?:the\s+)?(?:element|chemical)?|(?:chemical|molecular|empirical)\s+formula|abbreviation|acronym|initials)\b/i;
const NEG_SCOPE = 5;

interface Word {
  /** Lower case. */
  w: string;
  /** As written. */
  raw: string;
}

interface Statement {
  words: Word[];
  retracted: boolean;
  /** "like a pile of plates", "such as ...": an illustration, not another answer. */
  illustration?: boolean;
  /** Indexes of negation cues. */
  cues: number[];
}

interface Match {
  statement: number;
  start: number;
  end: number;
  how: string;
}

/** "CO₂", "H₂O", "m²": subscript and superscript digits read as digits. */
function plainDigits(text: string): string {
  return text.replace(/[₀-₉]/g, (c) => String(c.charCodeAt(0) - 0x2080)).replace(/[⁰¹²³⁴-⁹]/g, (c) => String('⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)));
}

/**
 * Words as read: accents stripped and unit symbols named (accents.ts), so "García" is one word and
 * "Ω" is "ohm"; letters of other scripts are words too, only not English ones.
 */
function wordsOf(text: string): Word[] {
  const t = readableText(plainDigits(text)).replace(/[’‘`]/g, "'").replace(/\b(can)'t\b|\bcannot\b/gi, 'can not').replace(/\bwon't\b/gi, 'will not').replace(/\b(\w+)n't\b/gi, '$1 not');
  return [...t.matchAll(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu)].map((m) => ({ w: m[0].toLowerCase().replace(/'s$/, ''), raw: m[0] }));
}

/** Statements in order; a statement of retraction words takes back every earlier one. */
/**
 * Words of an answer that are read. A short-answer reply longer than this is an essay; reading
 * every n-gram of 20,000 characters against WordNet would hold the event loop for a second.
 */
export const MAX_SHORT_ANSWER_WORDS = 300;

function statements(answer: string): Statement[] {
  // Split with the separators kept (odd indexes), so "no" after a question mark can be told from "no" after a comma.
  const split = answer.split(/([.;!?,:()]+|\s[-–—]+\s|\b(?:but|however|although|though|whereas|instead|rather|i mean)\b)/i);
  const out: Statement[] = [];
  let budget = MAX_SHORT_ANSWER_WORDS;
  for (let k = 0; k < split.length; k += 2) {
    const piece = split[k]!;
    const after = split[k - 1] ?? '';
    if (budget <= 0) break;
    const words = wordsOf(piece).slice(0, budget);
    budget -= words.length;
    if (words.length === 0) continue;
    if (words.every((x) => RETRACT.has(x.w)) && words.some((x) => x.w !== 'i' && x.w !== 'that')) {
      for (const s of out) s.retracted = true;
      continue;
    }
    // "actually Y" / "no, Y" at the start of a statement also corrects what came before.
    // "no perspective" after a comma is a denial of it, not a correction: "no" corrects after a question or a stop.
    const correcting = words[0].w === 'no' && words.length > 1 && out.length > 0 && /[?!.;]|^$/.test(after.trim() || '?') && !/^no\s+(?:one|body)/i.test(piece.trim());
    if (['actually', 'correction'].includes(words[0].w) || correcting) {
      for (const s of out) s.retracted = true;
      if (words[0].w === 'no') words.shift();
    }
    const illustration = /^\s*(?:like|such\s+as|for\s+example|for\s+instance|e\.?g\.?|as\s+in)\b/i.test(piece);
    out.push({ words, retracted: false, illustration, cues: words.flatMap((x, i) => (NEGATIONS.has(x.w) ? [i] : [])) });
  }
  return out;
}

// ---- WordNet helpers ------------------------------------------------------------------------

const senseCache = new Map<string, Synset[]>();
function senses(phrase: string, poses: Pos[] = POSES): Synset[] {
  const key = `${poses.join()}:${phrase}`;
  let s = senseCache.get(key);
  if (!s) {
    s = [];
    for (const pos of poses) {
      const forms = new Set([phrase, pos === 'noun' ? lemmatizer.noun(phrase) : pos === 'verb' ? lemmatizer.verb(phrase) : pos === 'adj' ? lemmatizer.adjective(phrase) : phrase]);
      // A phrase's last word carries the plural: "red blood cells".
      const parts = phrase.split(' ');
      if (parts.length > 1 && pos === 'noun') forms.add([...parts.slice(0, -1), lemmatizer.noun(parts[parts.length - 1])].join(' '));
      for (const f of forms) for (const off of lookup(f, pos)) if (!s.some((x) => x.offset === off && x.pos === pos)) s.push(synset(off, pos));
    }
    if (senseCache.size > 20_000) senseCache.clear();
    senseCache.set(key, s);
  }
  return s;
}

function isWord(w: string): boolean {
  return senses(w).length > 0;
}

function related(s: Synset, symbols: string[]): Synset[] {
  return s.pointers.filter((p) => symbols.includes(p.symbol)).map((p) => synset(p.offset, p.pos));
}

function hasWord(s: Synset, w: string): boolean {
  return s.words.some((x) => x.toLowerCase() === w);
}

/** Adverbs of degree: a gloss "very loud" says another degree of loud, not loud. */
const DEGREE = /\b(?:very|extremely|exceedingly|excessively|overly|too|highly|intensely|somewhat|slightly|moderately|mildly|rather|fairly|unusually|extraordinarily)\s+([a-z-]+)/gi;

/**
 * Whether one of two linked adjective senses is glossed as a degree of the other: "fortissimo"
 * (very loud) of "forte, loud", "overjoyed" (extremely joyful) of "joyful", "tepid" (moderately
 * warm) of "warm". Such a sense is a stronger or weaker answer, not the same one; "glad" and
 * "cheerful" are linked to "joyful" with no such gloss.
 */
const degreeCache = new Map<string, boolean>();
function anotherDegree(a: Synset, b: Synset): boolean {
  const key = `${a.offset}:${b.offset}`;
  let v = degreeCache.get(key);
  if (v === undefined) {
    const says = (x: Synset, y: Synset) => [...x.definition.matchAll(DEGREE)].some((m) => hasWord(y, m[1].toLowerCase()));
    v = says(a, b) || says(b, a);
    if (degreeCache.size > 20_000) degreeCache.clear();
    degreeCache.set(key, v);
  }
  return v;
}

/** Senses close enough to count as the same meaning: the synset, and for adjectives similar and see-also senses of the same degree. */
function closeSenses(word: string, expected?: Synset[]): Synset[] {
  const out: Synset[] = [];
  for (const s of expected ?? senses(word)) {
    out.push(s);
    if (s.pos !== 'adj') continue;
    for (const r of related(s, ['&', '^'])) {
      if (anotherDegree(s, r)) continue;
      out.push(r);
      for (const r2 of related(r, ['^'])) if (!anotherDegree(r, r2)) out.push(r2);
    }
  }
  return out;
}

/** `maxSenses`: only the reference word's most frequent senses of each part of speech ("sets up" is not the sun setting). */
export function antonymOf(refWord: string, userWord: string, poses: Pos[] = POSES, maxSenses = Infinity): boolean {
  const seen = new Map<Pos, number>();
  for (const s of senses(refWord, poses)) {
    const n = (seen.get(s.pos) ?? 0) + 1;
    seen.set(s.pos, n);
    if (n > maxSenses) continue;
    for (const a of related(s, ['!'])) if (hasWord(a, userWord) || hasWord(a, lemmatizer.verb(userWord)) || hasWord(a, lemmatizer.noun(userWord)) || hasWord(a, lemmatizer.adjective(userWord))) return true;
  }
  return false;
}

const hypernymCache = new Map<string, Set<string>>();
/** Hypernyms and instance hypernyms up to `depth` levels, as "pos:offset". */
function hypernymsWithin(s: Synset, depth: number): Set<string> {
  const key = `${s.pos}:${s.offset}:${depth}`;
  let acc = hypernymCache.get(key);
  if (!acc) {
    acc = new Set<string>();
    if (depth > 0) {
      for (const h of related(s, ['@', '@i'])) {
        acc.add(`${h.pos}:${h.offset}`);
        for (const k of hypernymsWithin(h, depth - 1)) acc.add(k);
      }
    }
    if (hypernymCache.size > 20_000) hypernymCache.clear();
    hypernymCache.set(key, acc);
  }
  return acc;
}

// ---- matching ---------------------------------------------------------------------------------

/** The lemma a word inflects from, when it inflects irregularly (went < go, mice < mouse). */
function irregular(word: string): boolean {
  for (const lemma of [lemmatizer.verb(word), lemmatizer.noun(word)]) {
    if (lemma === word) continue;
    let common = 0;
    while (common < lemma.length && lemma[common] === word[common]) common++;
    // went < go, ran < run, mice < mouse; not studies < study, mitochondria < mitochondrion.
    if (common < lemma.length - 2 || (common < lemma.length - 1 && lemma.length <= 4)) return true;
  }
  return false;
}

function lemmas(word: string): Set<string> {
  return new Set([word, lemmatizer.noun(word), lemmatizer.verb(word), lemmatizer.adjective(word)]);
}

/** How a reference word is matched by an answer word, or null. `strict`: only the same word. */
function wordMatch(ref: string, user: string, strict: boolean, expected?: Synset[]): string | null {
  if (ref === user) return 'exact';
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
  if (!/\d/.test(user) && isSlip(ref, user) && !isWord(user)) return 'spelling';
  return null;
}

function contentWords(words: Word[]): Word[] {
  return words.filter((x) => !FILLER.has(x.w) && !NEGATIONS.has(x.w));
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

/**
 * The senses of the reference the question is about (a simplified Lesk): those whose definition
 * or hypernyms share most words with the question. "Respiration" in a question about energy
 * from glucose is cellular respiration, not breathing.
 */
/** Senses of a part of speech kept when the question does not tell which is meant (WordNet lists the frequent first). */
const FREQUENT_SENSES = 4;

/** The first FREQUENT_SENSES senses of each part of speech: "digest" is not "support" by their sense "tolerate". */
function frequent(all: Synset[]): Synset[] {
  const seen = new Map<string, number>();
  return all.filter((s) => {
    const n = (seen.get(s.pos) ?? 0) + 1;
    seen.set(s.pos, n);
    return n <= FREQUENT_SENSES;
  });
}

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

function alternative(text: string, qWords: Set<string>): Alternative {
  const words = wordsOf(text);
  let content = contentWords(words);
  // Words the question already says may be left out ("chemical" for "chemical energy" when asked what kind of energy).
  const own = content.filter((x) => ![...lemmas(x.w)].some((l) => qWords.has(l)));
  const optional = own.length > 0 && own.length < content.length ? content.filter((x) => !own.includes(x)) : [];
  content = content.length ? content : words;
  const name = content.length >= 2 && /^[A-Z]/.test(content[0].raw) && /^[A-Z]/.test(content[content.length - 1].raw);
  const phrase = content.map((x) => x.w).join(' ');
  const wordSenses = new Map(content.map((x) => [x.w, expectedSenses(senses(x.w), qWords)] as const));
  // "Planet" alone is not "Red Planet": a surname stands for a person (WordNet's, when it knows the
  // name), and a word the question says ("a kind of planet") is no surname.
  const last = content[content.length - 1]!.w;
  const known = lookup(phrase);
  const person = known.length === 0 || known.some((o) => synset(o).lexFile === PERSON_FILE);
  const surname = name && person && ![...lemmas(last)].some((l) => qWords.has(l)) ? last : null;
  return { text, words, content, required: optional.length ? own : content, name, surname, senses: expectedSenses(senses(phrase), qWords), wordSenses };
}

/** "H2O (water)", "Paris / Lutetia", "the Nile or the Amazon (accept either)". */
function alternatives(reference: string, qWords: Set<string>): Alternative[] {
  const accept = [...reference.matchAll(/\((?:also )?(?:accept|or)[:\s]+([^)]*)\)/gi)].flatMap((m) => m[1].split(/,|\bor\b|\//));
  const main = reference.replace(/\((?:also )?(?:accept|or)[:\s]+[^)]*\)/gi, ' ');
  const paren = [...main.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]);
  const parts = main
    .replace(/\([^)]*\)/g, ' ')
    .split(/\s+\/\s+|\s*;\s*|\s+or\s+/i)
    .concat(paren, accept)
    .map((p) => p.trim())
    .filter((p) => wordsOf(p).length > 0);
  // A formula in the reference also stands for its name ("NaCl": sodium chloride).
  const named = parts.flatMap((p) => [p, ...formulaNames(p.trim())]);
  return named.map((p) => alternative(p, qWords));
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
          if ([gram.join(' '), ...(n === 2 ? [gram.join('')] : [])].some((g) => senses(g).some((s) => want.has(`${s.pos}:${s.offset}`)))) out.push({ statement: si, start: i, end: i + n, how: n === alt.content.length && gram.join(' ') === alt.content.map((x) => x.w).join(' ') ? 'exact' : 'another name for the same thing' });
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
      const hits: { i: number; how: string }[] = [];
      for (const cw of need) {
        let found: { i: number; how: string } | null = null;
        for (let i = 0; i < ws.length && !found; i++) {
          const how = wordMatch(cw.w, ws[i].w, strict, alt.wordSenses.get(cw.w)) ?? (alt.name && hits.length > 0 && isSlip(cw.w, ws[i].w) ? 'spelling' : null);
          if (how) found = { i, how };
        }
        if (!found) break;
        hits.push(found);
      }
      if (hits.length === need.length && hits.length > 0) {
        const start = Math.min(...hits.map((h) => h.i));
        const end = Math.max(...hits.map((h) => h.i)) + 1;
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

/** Words of the question: a negation of these is a denial of the claim the question asks about. */
function questionWords(statement: string): Set<string> {
  return new Set(contentWords(wordsOf(statement)).flatMap((x) => [...lemmas(x.w)]));
}

/** Whether a match is denied in its statement: a negation just before it, or after it over the question's own words. */
function denied(st: Statement, m: Match, qWords: Set<string>): boolean {
  for (const c of st.cues) {
    if (c < m.end && m.start - c <= NEG_SCOPE) return true;
    if (c >= m.end) {
      const after = contentWords(st.words.slice(c + 1));
      if (after.length === 0 || after.some((x) => [...lemmas(x.w)].some((l) => qWords.has(l)))) return true;
    }
  }
  return false;
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
function rival(alt: Alternative, sts: Statement[], matched: Set<string>, qWords: Set<string>): string | null {
  const refSenses = alt.senses.filter((s) => s.pos === 'noun');
  if (refSenses.length === 0) return null;
  const own = new Set(refSenses.map((s) => s.offset));
  const kinds = new Set(refSenses.flatMap((s) => [...hypernymsWithin(s, 2)]));
  const ancestors = new Set(refSenses.flatMap((s) => [...hypernymsWithin(s, 12)]));
  for (const [si, st] of sts.entries()) {
    if (st.retracted || st.illustration) continue;
    for (let n = 3; n >= 1; n--) {
      for (let i = 0; i + n <= st.words.length; i++) {
        const gram = st.words.slice(i, i + n);
        if (gram.some((x, k) => matched.has(`${si}:${i + k}`) || FILLER.has(x.w) || qWords.has(x.w))) continue;
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
  const sts = statements(plainChange(userAnswer));
  reference = plainChange(reference);
  const qWords = questionWords(statement);
  const strict = FORM_QUESTION.test(statement);
  const fail = (why: string): GradeResult => ({ score: 0, max_score: 1, method: 'rubric', met: [], missed: [reference], explanation: `${why} The expected answer is ${reference}.` });
  if (sts.length === 0) return fail(userAnswer.trim() ? `The answer has no word or number to read ("${userAnswer.trim().slice(0, 40)}").` : 'No answer was given.');

  let deniedText: string | null = null;
  const alts = alternatives(reference, qWords);
  for (const alt of alts) {
    const matches = findMatches(alt, sts, strict || irregular(alt.content[0]?.w ?? ''));
    // A reference that is itself a denial ("does not dissolve") is met by a denial.
    const refNegated = alt.words.some((x) => NEGATIONS.has(x.w));
    const asserted = matches.filter((m) => !sts[m.statement].retracted && denied(sts[m.statement], m, qWords) === refNegated);
    const negated = matches.filter((m) => !sts[m.statement].retracted && denied(sts[m.statement], m, qWords) !== refNegated);
    if (negated.length) deniedText = sts[negated[0].statement].words.map((x) => x.raw).join(' ');
    if (asserted.length === 0) continue;
    const longer = asserted.map((m) => longerName(alt, sts[m.statement], m, qWords)).find((x) => x);
    if (longer && asserted.every((m) => longerName(alt, sts[m.statement], m, qWords))) return fail(`"${longer}" names someone or something else than ${alt.text}.`);
    if (negated.some((n) => n.statement > Math.max(...asserted.map((a) => a.statement)))) return fail(`The answer gives ${alt.text} and then denies it.`);
    const matched = new Set(matches.flatMap((m) => Array.from({ length: m.end - m.start }, (_, k) => `${m.statement}:${m.start + k}`)));
    const hedge = opts.among ? null : asserted.map((m) => hedged(sts[m.statement], m, qWords)).find((x) => x);
    if (hedge) return fail(`The answer hedges between ${alt.text} and ${hedge}.`);
    const other = opts.among ? null : rival(alt, sts, matched, qWords);
    if (other) return fail(`The answer also gives ${other}, another answer of the same kind, so it does not commit to ${alt.text}.`);
    const opposite = antonymIn(alt, sts);
    if (opposite) return fail(`The answer contradicts itself: ${opposite}.`);
    const added = misattributedSuperlative(userAnswer, alt.senses.filter((s) => s.pos === 'noun'));
    if (added) return fail(`The answer adds a claim that is not true of ${alt.text}: ${added}.`);
    const how = asserted[0].how;
    if (opts.namesOnly && /^(?:synonym|related form|spelling)$/.test(how)) continue;
    return { score: 1, max_score: 1, method: 'rubric', met: [reference], missed: [], explanation: `Correct: the answer gives ${alt.text}${how === 'exact' ? '' : ` (${how})`}.` };
  }
  if (deniedText) return fail(`The answer denies it ("${deniedText}").`);
  for (const alt of alts) {
    const opposite = antonymIn(alt, sts);
    if (opposite) return fail(`${opposite[0].toUpperCase()}${opposite.slice(1)}.`);
  }
  if (strict) return fail('The question asks for a particular form of the word, and the answer does not give it.');
  return fail('The answer does not give it.');
}

// ---- a claim added to a numeric answer ------------------------------------------------------

/** Words that join a claim to the number and say nothing themselves ("7, which means it is ..."). */
const LINKS = new Set(['mean', 'means', 'meaning', 'because', 'since', 'therefore', 'hence', 'thus', 'make', 'makes', 'making', 'value', 'number']);
/** A comparison a gloss makes with a number: "a pH of less than 7", "between 90 and 180 degrees". */
const COMPARISON = /\b(less than|lower than|fewer than|below|under|greater than|more than|higher than|above|over|exceeding|equal to|between|of)\s+(-?\d+(?:\.\d+)?)(?:\s+and\s+(-?\d+(?:\.\d+)?))?/gi;
/** Distinct added words whose senses are read, and characters of a gloss read after the question's word. */
const MAX_CLAIM_WORDS = 40;
const GLOSS_WINDOW = 60;
const GAP_BEFORE_COMPARISON = 25;
/** Characters of an answer read for an added claim: past its first 300 words (MAX_SHORT_ANSWER_WORDS) at any length of word. */
const MAX_CLAIM_CHARS = MAX_SHORT_ANSWER_WORDS * 20;

function compares(op: string, a: number, b: number | undefined, v: number): boolean {
  switch (op.toLowerCase()) {
    case 'less than':
    case 'lower than':
    case 'fewer than':
    case 'below':
    case 'under':
      return v < a;
    case 'greater than':
    case 'more than':
    case 'higher than':
    case 'above':
    case 'over':
    case 'exceeding':
      return v > a;
    case 'between':
      return b !== undefined && v > Math.min(a, b) && v < Math.max(a, b);
    default:
      return v === a;
  }
}

/**
 * What a gloss says of a quantity the question names, as comparisons with numbers: "acidic"
 * (having a pH of less than 7), "obtuse" (of an angle; between 90 and 180 degrees). Null when the
 * gloss names no number for it. The comparisons are read from just after the quantity's word.
 */
function glossCondition(definition: string, quantity: string): { text: string; holds: (v: number) => boolean } | null {
  const d = definition.toLowerCase();
  const at = new RegExp(`\\b${quantity.replace(/[^a-z0-9]/g, '')}s?\\b`).exec(d);
  if (!at) return null;
  const window = d.slice(at.index + at[0].length, at.index + at[0].length + GLOSS_WINDOW);
  const found: { op: string; a: number; b?: number }[] = [];
  let last = 0;
  for (const m of window.matchAll(COMPARISON)) {
    const gap = window.slice(last, m.index);
    // The first comparison close to the quantity's word; each further one joined to it ("but less than 180").
    if (found.length === 0 ? gap.length > GAP_BEFORE_COMPARISON || /\d/.test(gap) : !/^[\s,]*(?:but|and)?[\s,]*$/.test(gap)) break;
    found.push({ op: m[1], a: Number(m[2]), b: m[3] === undefined ? undefined : Number(m[3]) });
    last = m.index + m[0].length;
  }
  if (found.length === 0) return null;
  return { text: definition.trim(), holds: (v) => found.every((c) => compares(c.op, c.a, c.b, v)) };
}

/** The number a reference states ("7", "90°", "100 °C", "seven"), or null for any other reference. */
function referenceNumber(reference: string): number | null {
  const t = readableText(reference).trim().replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/\u2212/g, '-');
  const m = /^-?\d+(?:\.\d+)?/.exec(t);
  if (m) {
    // A unit may follow, after a space ("100 degrees Celsius", "7 pH"); "2π" or "3x" is not a number.
    const rest = t.slice(m[0].length);
    return rest.trim() === '' || (/^\s+[A-Za-z]/.test(rest) && !/\d/.test(rest) && wordsOf(rest).length <= 3) ? Number(m[0]) : null;
  }
  return numberFromWords(t);
}

/**
 * A claim an answer adds to the right number that the question's own words refute, or null. The
 * number is read by the math grader, which passes over prose after it; this reads the prose as a
 * short answer is read: the number must not be denied or taken back, the added words must not be
 * the opposite of the question's or reference's words ("6, an irregular polygon" when asked about
 * a regular one), and an added word WordNet glosses with a number for a quantity the question
 * names must agree with the reference ("7, so it is acidic": the adjective acidic is "having a pH
 * of less than 7"). Words under a negation are not claimed ("7, neither acidic nor alkaline").
 */
export function addedClaimAgainst(reference: string, answer: string, statement: string): string | null {
  const value = referenceNumber(reference);
  if (value === null) return null;
  // Each number in the answer as one word: the reference's value, or another.
  const text = readableText(answer.slice(0, MAX_CLAIM_CHARS)).replace(/\u2212/g, '-').replace(/-?\d+(?:[.,]\d+)*/g, (lit) => (Number(lit.replace(/,(?=\d{3}\b)/g, '').replace(',', '.')) === value ? ' refvalue ' : ' othervalue '));
  const sts = statements(text);
  const qWords = questionWords(statement);
  const given = (w: string) => w === 'refvalue' || numberFromWords(w) === value;
  const said = sts.flatMap((st, si) => st.words.flatMap((x, i) => (given(x.w) ? [{ st, m: { statement: si, start: i, end: i + 1, how: '' } }] : [])));
  if (said.length > 0 && said.every(({ st, m }) => st.retracted || denied(st, m, qWords))) return 'The answer gives the number and then denies or takes it back.';

  const own = [...contentWords(wordsOf(statement)), ...contentWords(wordsOf(reference))].map((x) => x.w).filter((w) => !/\d/.test(w));
  const ownLemmas = new Set([...own.flatMap((w) => [...lemmas(w)]), ...qWords]);
  const claimed: Word[] = [];
  for (const st of sts) {
    if (st.retracted) continue;
    st.words.forEach((x, i) => {
      if (claimed.length >= MAX_CLAIM_WORDS || claimed.some((c) => c.w === x.w)) return;
      if (given(x.w) || x.w === 'othervalue' || numberFromWords(x.w) !== null || FILLER.has(x.w) || NEGATIONS.has(x.w) || LINKS.has(x.w)) return;
      if ([...lemmas(x.w)].some((l) => ownLemmas.has(l))) return;
      if (st.cues.some((c) => c < i && i - c <= NEG_SCOPE)) return;
      claimed.push(x);
    });
  }
  for (const x of claimed) for (const q of new Set(own)) if (antonymOf(q, x.w)) return `The answer adds "${x.raw}", the opposite of "${q}".`;
  for (const x of claimed) {
    let against: string | null = null;
    let agrees = false;
    // Adjectives only: they say what the thing asked about is; a noun's gloss may give its own value ("pi": about 3.14).
    for (const s of senses(x.w, ['adj'])) {
      for (const q of new Set(own)) {
        const c = glossCondition(s.definition, q);
        if (!c) continue;
        if (c.holds(value)) agrees = true;
        else against ??= c.text;
      }
    }
    if (against && !agrees) return `The answer adds "${x.raw}", which WordNet glosses as "${against}"; ${value} is not.`;
  }
  return null;
}

/**
 * A full-marks grade of a numeric reference, refused when the answer adds a claim against it
 * (`addedClaimAgainst`); any other grade as it is.
 */
export function checkAddedClaim(result: GradeResult, reference: string, answer: string, statement: string): GradeResult {
  if (result.max_score <= 0 || result.score !== result.max_score) return result;
  const why = addedClaimAgainst(reference, answer, statement);
  return why ? { ...result, score: 0, met: [], missed: [reference], explanation: `${why} The expected answer is ${reference}.` } : result;
}
