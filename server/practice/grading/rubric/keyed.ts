/**
 * Criteria that name what the answer must give, beside words that only say what it is about:
 * "identifies the independent variable (temperature)", "correctly calculates the mean (7)",
 * "names the kidney as the organ", "identifies the reaction as neutralisation". The named thing
 * (the key) must be in the answer, and where the answer speaks of the role ("the independent
 * variable is ...", "mean = ..."), the key must be what it says there, not a word of another part.
 */
import { contentWords, type Answer, type Judgement, judgeWords, tokenize } from './match.ts';
import { gradeShortAnswer } from '../short-answer.ts';
import { forms } from '../text.ts';

/** Nouns that name a role or a category, not an answer: the other side of "X as Y" is the key. */
const ROLE_NOUNS = new Set(
  'process reaction organ organs reactant reactants product products variable variables cause causes effect effects type kind name term answer result value unit units method example structure function property feature reason factor organelle gas gases element compound substance part parts event person country city place enzyme hormone force energy'.split(' '),
);
/** Words before a role or key that carry nothing: instruction verbs and judgement. */
const LEAD = /^(?:(?:correctly|clearly|accurately)\s+)?(?:identif(?:y|ies)|names?|gives?|states?|calculates?|finds?|works?\s+out|writes?|labels?|recogni[sz]es?|selects?|chooses?|determines?|classif(?:y|ies))\s+/i;
/** How far (in words, same clause) a key may be from the role it belongs to: after it, and before it. */
const AFTER = 7;
const CONJUNCTIONS = new Set(['and', 'but', 'while', 'whereas', 'or', 'then']);
const BEFORE = 4;

interface Keyed {
  key: string;
  role: string;
}

function isRole(words: string[]): boolean {
  return words.length > 0 && words.every((w) => ROLE_NOUNS.has(w) || /^(?:the|a|an|its|their)$/.test(w));
}

/** The key and role of a criterion, when it names its answer; null for other criteria. */
export function keyOf(criterion: string): Keyed | null {
  const t = criterion.trim().replace(LEAD, '');
  // "the pH of the solution as 7 (neutral)": the "as" names the key; the bracket glosses it.
  const glossed = /^(.+?)\s+as\s+([^()]+?)\s*\(([^()]{1,40})\)\s*\.?$/i.exec(t);
  if (glossed && !isRole(contentWords(tokenize(glossed[2]!)))) return { key: glossed[2]!.trim(), role: glossed[1]!.trim() };
  // "... (temperature)" at the end, not a note ("e.g.", "accept", "1 mark").
  const paren = /^(.*\S)\s*\(([^()]{1,40})\)\s*\.?$/.exec(t);
  if (paren && !/^(?:e\.?g|i\.?e|accept|also|or|reject|not|do not|\d+\s*(?:marks?|points?|pts?)|any|for example)\b/i.test(paren[2]!.trim()) && tokenize(paren[2]!).length <= 4) {
    return { key: paren[2]!.trim(), role: paren[1]!.trim() };
  }
  // "the reaction as neutralisation" / "the kidney as the organ".
  const as = /^(.+?)\s+as\s+(.+?)\.?$/i.exec(t);
  if (as) {
    const left = contentWords(tokenize(as[1]!));
    const right = contentWords(tokenize(as[2]!));
    if (isRole(left) && !isRole(right)) return { key: as[2]!, role: as[1]! };
    if (isRole(right) && !isRole(left)) return { key: as[1]!, role: as[2]! };
  }
  return null;
}

/**
 * The answer's clauses as words, a short label joined to what follows it: "Dependent variable: the
 * rate of reaction" is one place, "mean 9, mode 7" two.
 */
function sentences(answer: Answer): string[][] {
  const out: string[][] = [];
  let label: string[] = [];
  // Sentence and clause ends; the point and comma of 7.5 or 100,000 are not.
  for (const part of answer.text.split(/[;!?\n]+|(?<!\d)[.,]|[.,](?!\d)|\s[–—]\s/)) {
    const words = tokenize(part);
    if (words.length === 0) continue;
    if (/:\s*$/.test(part) || (/:/.test(part) && tokenize(part.split(':')[0]!).length <= 3)) {
      const [head, ...rest] = part.split(':');
      const tail = tokenize(rest.join(':'));
      if (tail.length === 0) {
        label = [...label, ...tokenize(head!)];
        continue;
      }
      out.push([...label, ...tokenize(head!), ...tail]);
    } else out.push([...label, ...words]);
    label = [];
  }
  if (label.length) out.push(label);
  return out;
}

function positions(answer: Answer, words: string[]): { clause: number; index: number; word: string }[] {
  const wanted = new Set(words.flatMap((w) => [...forms(w)]));
  const out: { clause: number; index: number; word: string }[] = [];
  sentences(answer).forEach((clause, ci) =>
    clause.forEach((w, wi) => {
      if ([...forms(w)].some((f) => wanted.has(f))) out.push({ clause: ci, index: wi, word: w });
    }),
  );
  return out;
}

/**
 * Roles that come in pairs, and the verbs that give a thing one of them: "oxygen and glucose are
 * used to produce carbon dioxide and water" gives carbon dioxide and water as products, so not as
 * the reactants.
 */
const PAIRED_ROLES: Record<string, 'in' | 'out'> = {
  reactant: 'in', reactants: 'in', reagent: 'in', reagents: 'in', input: 'in', inputs: 'in', raw: 'in',
  product: 'out', products: 'out', output: 'out', outputs: 'out',
};
const IN_BEFORE = new Set('use uses using used need needs needed needing take takes taking took require requires required from react reacts reacting combine combines combining consume consumes consuming absorb absorbs absorbing reactant reactants'.split(' '));
const OUT_BEFORE = new Set('produce produces producing produced make makes making made form forms forming formed release releases releasing released give gives giving gave yield yields yielding create creates creating created into product products'.split(' '));
const IN_AFTER = new Set('react reacts reacted used needed combine combined consumed absorbed taken broken converted turned changed'.split(' '));
const OUT_AFTER = new Set('produced made formed released given created'.split(' '));
const PASSIVE = new Set(['are', 'is', 'was', 'were', 'get', 'gets', 'being', 'been', 'then']);

/** The role the answer gives the key by the verbs around it: 'in', 'out', or null when it does not say. */
function givenRole(answer: Answer, keyWords: string[]): 'in' | 'out' | null {
  const wanted = new Set(keyWords.flatMap((w) => [...forms(w)]));
  const isKey = (w: string) => [...forms(w)].some((f) => wanted.has(f));
  const roles = new Set<'in' | 'out'>();
  for (const words of sentences(answer)) {
    const start = words.findIndex(isKey);
    if (start < 0) continue;
    let end = start;
    while (end + 1 < words.length && (isKey(words[end + 1]!) || words[end + 1] === 'and')) end++;
    const before = words.slice(Math.max(0, start - 3), start).reverse().find((w) => IN_BEFORE.has(w) || OUT_BEFORE.has(w));
    const after = words.slice(end + 1, end + 4).filter((w) => !PASSIVE.has(w))[0];
    const role = before ? (OUT_BEFORE.has(before) ? 'out' : 'in') : after && IN_AFTER.has(after) ? 'in' : after && OUT_AFTER.has(after) ? 'out' : null;
    if (role) roles.add(role);
  }
  return roles.size === 1 ? [...roles][0]! : null;
}

/**
 * The judgement of a keyed criterion: the key's words said (as any criterion's), and, where the
 * answer names the role, said next to it. Null when the criterion has no key.
 */
export function keyedJudgement(criterion: string, answer: Answer): Judgement | null {
  const k = keyOf(criterion);
  if (!k) return null;
  const keyWords = contentWords(tokenize(k.key));
  if (keyWords.length === 0) return null;
  let j = judgeWords(keyWords, false, answer);
  // Another name for the key, a number in words, a surname: read as a short answer would be.
  // Each part of "carbon dioxide and water" on its own ("CO2 and H2O").
  const parts = k.key.split(/\s*(?:,|\band\b)\s*/).filter((p) => contentWords(tokenize(p)).length > 0);
  if (j.coverage < 1 && parts.every((p) => gradeShortAnswer(answer.text, p, '', { among: true }).score === 1)) j = { ...j, coverage: 1, missing: [] };
  // The role's own words (not generic ones) where the answer uses them.
  const roleWords = contentWords(tokenize(k.role)).filter((w) => !ROLE_NOUNS.has(w));
  const roles = positions(answer, roleWords);
  // A number is only the mean (or the mode...) where the answer says so: working is full of numbers.
  const numeric = keyWords.every((w) => /^\d+$/.test(w));
  // The named answer is all of the criterion: half of it ("a salt and hydrogen" for "a salt and water") is not it.
  if (j.coverage < 1) return { ...j, coverage: 0 };
  const paired = contentWords(tokenize(k.role)).map((w) => PAIRED_ROLES[w]).find((r) => r);
  if (paired) {
    const given = givenRole(answer, keyWords);
    if (given && given !== paired) return { ...j, coverage: 0, missing: [`${k.key} (as ${k.role}; the answer gives it as ${given === 'in' ? 'what is used' : 'what is made'})`] };
  }
  if (roles.length === 0) return numeric && roleWords.length > 0 ? { ...j, coverage: 0, missing: [`${k.key} (as ${k.role})`] } : j;
  const keys = positions(answer, keyWords);
  const scopes = sentences(answer);
  const between = (c: number, a: number, b: number) => scopes[c]!.slice(Math.min(a, b) + 1, Math.max(a, b));
  const bound = roles.some((r) =>
    keys.some(
      (key) =>
        key.clause === r.clause &&
        key.index - r.index <= AFTER &&
        r.index - key.index <= BEFORE &&
        key.index !== r.index &&
        // "the rate of reaction and the dependent variable": another part of the answer.
        !between(r.clause, r.index, key.index).some((w) => CONJUNCTIONS.has(w)),
    ),
  );
  return bound ? j : { ...j, coverage: 0, missing: [`${k.key} (as ${k.role})`] };
}
