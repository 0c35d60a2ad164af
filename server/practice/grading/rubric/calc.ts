/**
 * Marks for a worked calculation ("4 marks: correct answer with all steps shown and units / 3
 * marks: ... missing units / 2 marks: correct method with an arithmetic error / 1 mark: some
 * relevant working"): what such descriptors ask is read off the answer with the CAS, not by
 * looking for the words "answer", "steps" or "units" in it.
 */
import { gradeMath, looksMathematical } from '../math/index.ts';
import { normalizeMath } from '../math/normalize.ts';
import { splitUnit } from '../math/units.ts';

export interface CalcFacts {
  /** The final value equals the reference (the CAS; a missing unit is implied). */
  correct: boolean;
  /** The final value carries a unit. */
  units: boolean;
  /** Steps are written: an equation, or operations on numbers. */
  working: boolean;
  /** The working puts the question's numbers (at least two of them) to use. */
  method: boolean;
}

const NUMBER = /-?\d+(?:\.\d+)?/g;

export function calcFacts(answer: string, reference: string, statement: string): CalcFacts | null {
  if (!reference || !looksMathematical(reference)) return null;
  const text = normalizeMath(answer);
  const last = text.split('=').pop()!.trim();
  const correct = gradeMath(last, reference, '').score === 1;
  const units = splitUnit(last).unit !== null;
  const numbers = text.match(NUMBER) ?? [];
  const working = /=/.test(text) || /\d\s*[-+*/÷×]\s*\(?\d/.test(text) || numbers.length >= 3;
  const given = new Set(statement.match(NUMBER) ?? []);
  const used = new Set(numbers.filter((n) => given.has(n)));
  return { correct, units, working, method: working && used.size >= 2 };
}

type Need = keyof CalcFacts;

/**
 * What a level descriptor of a worked calculation requires, each fact true or false; null when
 * the descriptor speaks of something else (then it is read as words).
 */
export function calcNeeds(descriptor: string): Partial<Record<Need, boolean>> | null {
  const d = descriptor.toLowerCase();
  const rest = d
    .replace(/\b(?:correct|right|accurate|final|answer|result|with|and|but|all|some|steps?|shown|showing|working|workings|method|units?|missing|no|without|an?|the|arithmetic(?:al)?|calculation|numerical|error|errors|mistakes?|slip|relevant|attempt|valid|clear|fully|partly|partially|incorrect|wrong|only|given|or|of|in|omitted)\b/g, ' ')
    .replace(/[^a-z]+/g, ' ')
    .trim();
  if (rest !== '') return null;
  const needs: Partial<Record<Need, boolean>> = {};
  if (/\b(?:no|without) relevant working\b|^\s*(?:nothing|no answer)\b/.test(d)) return { working: false };
  if (/\b(?:correct|right|accurate)\s+(?:final\s+)?(?:answer|result)\b/.test(d)) needs.correct = true;
  if (/\b(?:arithmetic(?:al)?|numerical|calculation)?\s*(?:error|errors|mistakes?|slip)\b|\bwrong answer\b|\bincorrect answer\b/.test(d)) needs.correct = false;
  if (/\b(?:missing|no|without|omitted)\s+units?\b|\bunits?\s+(?:missing|omitted)\b/.test(d)) needs.units = false;
  else if (/\bunits?\b/.test(d)) needs.units = true;
  if (/\b(?:correct|right|valid)\s+method\b/.test(d)) needs.method = true;
  else if (/\b(?:steps?|working|workings|method)\b/.test(d)) needs.working = true;
  return Object.keys(needs).length ? needs : null;
}

export function meets(facts: CalcFacts, needs: Partial<Record<Need, boolean>>): boolean {
  return (Object.keys(needs) as Need[]).every((k) => facts[k] === needs[k]);
}

export function describeFacts(facts: CalcFacts): string {
  return `final value ${facts.correct ? 'correct' : 'not the expected one'}, ${facts.units ? 'with' : 'without'} units, ${facts.working ? 'working shown' : 'no working'}${facts.method ? ', method uses the given values' : ''}`;
}

// ---- criteria about the working: the formula shown, the values substituted --------------------

const OPERATOR = /[×*/÷+\-^=½]/;
/** The answer's pieces of working: what stands between "=" signs and sentence ends. */
function workingPieces(answer: string): string[] {
  return normalizeMath(answer)
    .split(/=|(?<!\d)[.;:!?\n]|[.;:!?\n](?!\d)|,\s/)
    .map((p) => p.trim())
    .filter((p) => p && OPERATOR.test(p.replace(/^-/, '')));
}

/** "showing the formula ½ × base × height", "the correct formula: speed = distance / time": the formula's right-hand side. */
export function namedFormula(wording: string): string | null {
  const m = /\b(?:formula|equation|expression|rule)\b\s*(?:[:\-–—]|\bof\b|\bfor\s+\w+)?\s*(.+)$/i.exec(wording);
  if (!m) return null;
  const formula = normalizeMath(m[1]!.replace(/[.;]\s*$/, ''));
  const rhs = formula.split('=').pop()!.trim();
  return OPERATOR.test(rhs) && /[a-z]{2,}/i.test(rhs) ? rhs : null;
}

/** "writing V = I × R", "uses F = ma": a formula in symbols (single letters, numbers, operators) the criterion names. */
export function symbolFormula(wording: string): string | null {
  const m = /(?:^|\s)([A-Za-z])\s*=\s*([A-Za-z0-9\s×*·/÷+\-^()½.]+?)\s*[.;]?$/.exec(wording);
  if (!m || !/[A-Za-z]/.test(m[2]!) || /[A-Za-z]{2,}/.test(m[2]!.replace(/\s+/g, ' ').replace(/\b[A-Za-z]\b/g, ''))) return null;
  return `${m[1]} = ${m[2]!.trim()}`;
}

/** Whether the answer writes `formula` (an equation in symbols) in any arrangement the CAS finds equal: "V = IR" for "V = I × R". */
export function showsEquation(answer: string, formula: string): boolean {
  const chains = normalizeMath(answer).split(/(?<!\d)[.;:!?\n]|[.;:!?\n](?!\d)|,\s|\b(?:so|then|therefore|hence|thus|and|which|gives)\b/i);
  return chains.some((chain) => {
    const sides = chain.split('=').map((x) => x.trim());
    return sides.slice(0, -1).some((lhs, i) => /[a-z]/i.test(lhs) && /[a-z]/i.test(sides[i + 1]!) && gradeMath(`${lhs} = ${sides[i + 1]}`, formula, '').score === 1);
  });
}

const LETTERS = 'pqrstuvwkmn';

/**
 * Whether the answer writes the formula: in its words ("1/2 × base × height"), or with the
 * question's values in place of them ("½ × 6 × 4" for a triangle of base 6 and height 4). The
 * CAS compares, so "base × height / 2" is the same formula.
 */
export function showsFormula(answer: string, rhs: string, statement: string): boolean {
  const names = [...new Set(rhs.match(/[a-z]{2,}/gi)?.map((w) => w.toLowerCase()) ?? [])];
  if (names.length === 0 || names.length > LETTERS.length) return false;
  const toLetters = (s: string) => names.reduce((t, w, i) => t.replace(new RegExp(`\\b${w}s?\\b`, 'gi'), LETTERS[i]!), s);
  const formula = toLetters(rhs);
  const values = names.map((w) => new RegExp(`\\b${w}s?\\b(?:\\s+(?:of|is|was|=|:))?\\s*(-?\\d+(?:\\.\\d+)?)`, 'i').exec(statement)?.[1]);
  const substituted = values.every((v) => v !== undefined) ? names.reduce((t, w, i) => t.replace(new RegExp(`\\b${w}s?\\b`, 'gi'), `(${values[i]})`), rhs) : null;
  for (const piece of workingPieces(answer)) {
    const asLetters = toLetters(piece);
    if (/[a-z]{2,}/i.test(asLetters)) continue;
    if (/[a-z]/i.test(asLetters) && gradeMath(asLetters, formula, '').score === 1) return true;
    // The values put in place of the names, written as working (at least two numbers).
    if (substituted && (piece.match(NUMBER) ?? []).length >= 2 && !/[a-z]/i.test(piece) && gradeMath(piece, substituted, '').score === 1) return true;
  }
  return false;
}

/**
 * "substituting 100 m and 20 s correctly": the working puts the named values (or else the
 * question's) into an expression whose value is the reference; "20 / 100" is not "100 / 20",
 * while "100 / 20 = 4" substitutes correctly and slips after. Null when the criterion is not about substitution.
 */
export function substitutesCorrectly(wording: string, answer: string, reference: string, statement: string): boolean | null {
  if (!/\bsubstitut|\bplugs?\s+in|\bputs?\s+in\b.*\bvalues?\b/i.test(wording)) return null;
  const named: string[] = wording.match(NUMBER) ?? statement.match(NUMBER) ?? [];
  return workingPieces(answer).some((p) => {
    const numbers: string[] = p.match(NUMBER) ?? [];
    return numbers.length >= 2 && named.filter((n) => numbers.includes(n)).length >= Math.min(2, named.length) && gradeMath(p, reference, '').score === 1;
  });
}
