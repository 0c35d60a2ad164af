/**
 * The form a question asks for ("simplify", "in lowest terms", "exact value", "to 3 decimal
 * places", "2 significant figures", "as a percent", "as a mixed number", "in cm"...), read from
 * the problem statement, and whether an answer that has the right value is written that way.
 */
import { isSimplified, parse } from './kas.ts';
import { incompleteFactorisation, isSumAtTop } from './factor.ts';
import { showInterval, type Intervals, type Reading, type Value } from './read.ts';
import { asDimension, findUnit, type Unit } from './units.ts';

export interface Forms {
  decimals: number | null;
  sigFigs: number | null;
  exact: boolean;
  simplest: boolean;
  fraction: boolean;
  decimal: boolean;
  percent: boolean;
  mixed: boolean;
  scientific: boolean;
  slopeIntercept: boolean;
  factored: boolean;
  expanded: boolean;
  units: boolean;
  /** The unit the question asks the answer in ("in cm", "how many metres"). */
  target: Unit | null;
  interval: boolean;
  /** "in interval notation": no inequality signs. */
  intervalNotation: boolean;
  /** "as an inequality": inequality signs, not brackets. */
  inequality: boolean;
  /** The quantity asked for is a percentage ("as a percent", "the percentage increase"). */
  percentQuantity: boolean;
  /** "as an ordinary number": written out, not in scientific notation (tuned on D). */
  ordinary: boolean;
  /** "as a single logarithm": a logarithm, not its value (tuned on D). */
  logarithm: boolean;
}

const NUMBER_WORDS: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const PLACES: Record<string, number> = { tenth: 1, hundredth: 2, thousandth: 3, 'ten-thousandth': 4, 'whole number': 0, integer: 0, unit: 0, one: 0, cent: 2, penny: 2 };

function count(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word.toLowerCase()] ?? Number.NaN);
}

function targetUnit(q: string): Unit | null {
  const m = /\b(?:in|into|to|as|how many|number of)\s+((?:square|cubic|sq\.?)\s+)?([a-zA-Z°$€£][a-zA-Z°/^23]*(?:\s+(?:per\s+[a-z]+|celsius|fahrenheit))?)(?=[\s,.?!)]|$)/gi;
  for (const hit of q.matchAll(m)) {
    const text = `${hit[1] ?? ''}${hit[2]}`.trim();
    // One letter is a unit only where a unit is expected ("answer in m"), never a variable name.
    if (text.length === 1 && !/\banswer\s+in\s+\w\b|\(in\s+\w\)/i.test(q)) continue;
    const u = findUnit(text);
    if (u) return u;
  }
  return null;
}

/** "Units not required", "with or without units": units are not demanded. */
const UNITS_OPTIONAL = /\bwith or without (?:the )?units?\b|\bunits? (?:are |is )?(?:not (?:required|needed|necessary)|optional)\b|\bno units? (?:are |is )?(?:required|needed)\b|\bignore (?:the )?units?\b/i;

/** "Include units", "units required", or a sentence that penalises an answer without units. */
function demandsUnits(q: string): boolean {
  if (UNITS_OPTIONAL.test(q)) return false;
  if (/\b(?:include|with|give|state|show|write|label|remember)\b[^.?!]*\bunits?\b|\bunits? (?:are |is )?(?:required|needed|necessary)\b/i.test(q)) return true;
  return q.split(/[.?!;]/).some((x) => /\bwithout (?:the |its |any )?units?\b/i.test(x) && /\b(?:0|zero|no (?:marks?|credit)|not (?:be )?accept|loses?|deduct|penali[sz])/i.test(x));
}

/** What a mark scheme allows ("Accept 1024 with or without a separator") demands nothing. */
function demands(scheme: string): string {
  return scheme.replace(/(?<!\bnot |n't |\bno )\b(?:also )?(?:accept|allow)s?\b[^.;\n]*/gi, ' ');
}

/**
 * The forms a question asks for, from its statement and, where given, the mark scheme's one line
 * ("Units are required", "no marks for an answer without units"). Whether the question is about intervals
 * (which decides how "(-2, 2)" is read) comes from the statement alone.
 */
export function readForms(statement: string, scheme = ''): Forms {
  const q = `${statement}${scheme ? `. ${demands(scheme)}` : ''}`.replace(/\s+/g, ' ');
  const dp = /\b(?:to|correct to|rounded to|round(?:ed)?(?: (?:it|your answer|the answer))? to|accurate to|give (?:it|your answer) to)\s+(\d+|one|two|three|four|five|six)\s+(?:decimal places?|d\.?\s?p\.?|places? after the decimal point)/i.exec(q);
  const nearest = /\bnearest\s+(tenth|hundredth|thousandth|ten-thousandth|whole number|integer|unit|one|cent|penny)\b/i.exec(q);
  const nearestUnit = /\bnearest\s+(dollar|degree|metre|meter|centimetre|centimeter|millimetre|millimeter|kilogram|gram|second|minute|percent|kilometre|kilometer|mile|foot|inch|pound)\b/i.exec(q);
  const intervalNotation = /\binterval notation\b|\bas an? (?:single )?interval\b|\bas a union of intervals\b/i.test(q);
  const inequality = /\bas an? (?:single )?inequalit(?:y|ies)\b|\binequality (?:notation|form)\b|\busing inequalit(?:y|ies)\b|\busing inequality signs\b/i.test(q);
  const percent = /\bas a percent(?:age)?\b|\bin percent\b|\bwhat percent(?:age)?\b|\bpercentage\b/i.test(q);
  const ordinary = /\bas an? (?:ordinary|normal) number\b|\bin (?:ordinary|normal|decimal) (?:form|notation)\b|\bout of (?:standard form|scientific notation)\b/i.test(q);
  const sf = /\b(\d+|one|two|three|four|five|six)\s+(?:significant figures?|significant digits?|sig\.?\s?figs?|s\.?\s?f\.?)(?=[\s,.?!)]|$)/i.exec(q);
  return {
    decimals: dp ? count(dp[1]) : nearest ? PLACES[nearest[1].toLowerCase()] : nearestUnit ? 0 : null,
    sigFigs: sf ? count(sf[1]) : null,
    // π is not a word character: a \b after it never matches.
    exact: /\bexact\b|\b(?:in terms of|as a multiple of) (?:\\?pi\b|π)|\bleave (?:your answer )?in terms of\b|\b(?:leave|keep)\s+(?:the\s+)?(?:π|\\?pi\b|surds?\b|roots?\b|√)|\bsimplest radical form\b|\bsurd form\b|\bin the form\s+[^.?]*(?:√|\\sqrt|sqrt)|\bdo not (?:round|use a calculator)\b/i.test(q),
    simplest: /\bsimplif|\bsimplest\b|\blowest terms\b|\breduce(?:d)?\b|\bfully simplified\b|\brationali[sz]/i.test(q),
    fraction: /\bas an? (?:improper |proper |common |simplified )?fraction\b|\bin fraction(?:al)? form\b|\bas a ratio of integers\b/i.test(q),
    decimal: /\bas a decimal\b|\bin decimal form\b|\bdecimal (?:number|value|answer)\b/i.test(q),
    percent,
    mixed: /\bmixed number\b|\bmixed fraction\b/i.test(q),
    scientific: !ordinary && /\bscientific notation\b|\bstandard (?:index )?form\b(?!.*\b(?:ax|line)\b)/i.test(q),
    ordinary,
    logarithm: /\bas (?:a )?single (?:logarithm|log)\b|\bas one (?:logarithm|log)\b|\bin (?:logarithmic|log) form\b/i.test(q),
    slopeIntercept: /\bslope[- ]intercept\b|\by\s*=\s*mx\s*\+\s*[bc]\b|\bgradient[- ]intercept\b/i.test(q),
    factored: /\bfactori[sz]e|\bfactored form\b|^\s*factor\b|\bfactor (?:completely|fully|the|this|each|it)\b|\bfully factor/i.test(q),
    expanded: /\bexpand\b|\bmultiply out\b|\bexpanded form\b|\bremove the (?:brackets|parentheses)\b/i.test(q),
    units: demandsUnits(q),
    target: targetUnit(q),
    interval: /\binterval\b|\binequalit|[<>≤≥]|\bdomain\b|\brange\b/i.test(statement),
    intervalNotation: intervalNotation && !inequality,
    inequality: inequality && !intervalNotation,
    // A probability may be written as a percentage ("33.3%" for 1/3), as it may be as a fraction or a decimal.
    percentQuantity: percent || /\bprobability\b|\bchance\b|\blikelihood\b/i.test(q) || /\bpercent(?:age)? (?:change|increase|decrease|rise|fall|reduction|discount|error|profit|loss|gain|difference|yield|uncertainty)\b/i.test(q),
  };
}

function sameUnit(a: Unit, b: Unit): boolean {
  // "100 degrees" where the question asks for degrees Celsius.
  if (b.dim === 'temperature' && /^deg/i.test(a.text)) return true;
  const m = asDimension(a, b.dim);
  return !!m && m.toBase(1) === b.toBase(1) && m.toBase(0) === b.toBase(0);
}

export function decimalsOf(literal: string): number {
  const m = /\.(\d+)(?!.*\d)/.exec(literal);
  return m ? m[1].length : 0;
}

export function isDecimalLiteral(s: string): boolean {
  return /^-?\d*\.\d+$/.test(s.trim());
}

/**
 * Significant figures as written, as the fewest and most it may mean: leading zeros never count,
 * trailing zeros after a decimal point always do, and those of a whole number may or may not
 * (6500 is 2, 3 or 4 significant figures).
 */
export function sigFigsOf(literal: string): [number, number] {
  const t = literal.trim().replace(/^-/, '').replace(/\s*(?:\*|x|×)\s*10\^\(?-?\d+\)?$/, '');
  if (!/^\d*\.?\d*$/.test(t) || !/\d/.test(t)) return [Number.NaN, Number.NaN];
  const digits = t.replace('.', '').replace(/^0+/, '');
  if (t.includes('.')) return [digits.length, digits.length];
  return [Math.max(1, digits.replace(/0+$/, '').length), Math.max(1, digits.length)];
}

export function roundTo(x: number, places: number): number {
  const f = 10 ** places;
  return Math.round((x + Math.sign(x) * 1e-12) * f) / f;
}

export function roundSig(x: number, n: number): number {
  if (x === 0) return 0;
  const p = n - 1 - Math.floor(Math.log10(Math.abs(x)));
  return roundTo(x, p);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Tokens of an expression: a measure of how much is left to simplify. */
export function complexity(s: string): number {
  return (s.replace(/\s+/g, '').match(/\d+(?:\.\d+)?|[a-z]+|[-+*/^]/gi) ?? []).length;
}

function squareFree(n: number): boolean {
  for (let k = 2; k * k <= n; k++) if (n % (k * k) === 0) return false;
  return true;
}

/**
 * A root left with a square factor under it ("√20" is 2√5), which an exact or surd form asked for
 * simplifies (tuned on I), or null.
 */
export function unsimplifiedRoot(literal: string): string | null {
  for (const r of literal.matchAll(/sqrt\(\s*(\d+)\s*\)/g)) if (!squareFree(Number(r[1])) && !Number.isInteger(Math.sqrt(Number(r[1])))) return `√${r[1]} can be simplified`;
  return null;
}

/** Why a numeric literal is not in simplest form, or null. */
function numberNotSimplest(v: Value, ref: Value): string | null {
  // A root written as a power ("2*3^(1/2)") is the root: judged as √ would be.
  // "2*3^0.5" too: a half written as a decimal.
  const asRoot = v.literal.replace(/\(?\s*(\d+)\s*\)?\s*\^\s*(?:\(\s*1\s*\/\s*2\s*\)|\(\s*0?\.5\s*\)|0?\.5(?!\d))/g, 'sqrt($1)');
  if (asRoot !== v.literal) return numberNotSimplest({ ...v, literal: asRoot }, ref);
  if (v.mixed) {
    if (!v.mixed.proper) return `${v.literal} is not a proper mixed number`;
    const [, n, d] = /(\d+)\s*\/\s*(\d+)$/.exec(v.literal)!;
    return gcd(Number(n), Number(d)) === 1 ? null : `the fraction in ${v.literal} is not in lowest terms`;
  }
  if (/\/\s*\(?[^()]*sqrt|\/\s*sqrt/.test(v.literal)) return `${v.literal} has a root in the denominator`;
  if (/sqrt\(\s*[\d.]+\s*\/\s*[\d.]+\s*\)/.test(v.literal)) return `${v.literal} has a fraction under the root`;
  const frac = /^-?\(?(-?\d+)\)?\s*\/\s*\(?(\d+)\)?$/.exec(v.literal);
  if (frac) {
    const [n, d] = [Math.abs(Number(frac[1])), Number(frac[2])];
    if (d === 1 || gcd(n, d) !== 1) return `${v.literal} is not in lowest terms`;
    return null;
  }
  for (const r of v.literal.matchAll(/sqrt\(\s*(\d+)\s*\)/g)) if (!squareFree(Number(r[1]))) return `√${r[1]} can be simplified`;
  if (/^-?\d+(?:\.\d+)?$/.test(v.literal)) {
    if (isDecimalLiteral(v.literal) && /\//.test(ref.literal)) return `${v.literal} is a decimal where a fraction in lowest terms is expected`;
    return null;
  }
  const e = parse(v.expr);
  if (e && !/sqrt|pi|\^\s*\(\s*1\s*\/\s*2\s*\)/.test(v.literal) && !isSimplified(e)) return `${v.literal} still has operations to carry out`;
  if (complexity(v.literal) > complexity(ref.literal) + 1) return `${v.literal} is not simplified as far as it goes`;
  return null;
}

/**
 * "Factorise completely": a product whose brackets keep no common factor and do not factor
 * further. Judged only where the reference passes the same test (a question may ask only to
 * take out a common factor) and the answer reads as a product.
 */
function factorisationProblem(user: string, ref: string): string | null {
  if (isSumAtTop(user) && !isSumAtTop(ref)) return 'the question asks for the factored form (a product of factors)';
  if (incompleteFactorisation(ref) !== null) return null;
  const why = incompleteFactorisation(user);
  return why ? `it is not factorised completely: ${why}` : null;
}

/** Intervals written with inequality signs: "-1 < x <= 4", "x < 0 or x >= 2". */
function showInequality(iv: Intervals): string {
  const one = (p: Intervals['pieces'][number]) => {
    const [lo, hi] = [Number.isFinite(p.lo), Number.isFinite(p.hi)];
    if (lo && hi) return `${p.lo} ${p.loClosed ? '≤' : '<'} x ${p.hiClosed ? '≤' : '<'} ${p.hi}`;
    if (lo) return `x ${p.loClosed ? '≥' : '>'} ${p.lo}`;
    return hi ? `x ${p.hiClosed ? '≤' : '<'} ${p.hi}` : 'all real x';
  };
  return iv.pieces.map(one).join(' or ');
}

/** A power of ten written in the answer: "3.2e-3", "3.2 × 10^-3", "3.2x10⁻³". */
const SCIENTIFIC_WRITTEN = /\d\s*[eE]\s*[-+−]?\d|[x×*·]\s*10\s*(?:\^|\*\*|[⁻⁰¹²³⁴⁵⁶⁷⁸⁹])/;

/**
 * Why an answer whose value is right is not in the form the question asks for, or null. Only
 * forms that can be checked on the reading are judged; decimal places and significant figures
 * are judged with the value (see gradeMath).
 */
export function formProblem(forms: Forms, user: Reading, ref: Reading, userText: string): string | null {
  if (user.kind === 'value' && ref.kind === 'value') {
    const numeric = (parse(user.expr)?.getVars().length ?? 1) === 0;
    // A root of a perfect square is a number not yet worked out, whatever the question says.
    for (const r of user.literal.matchAll(/sqrt\(\s*(\d+)\s*\)/g)) if (Number.isInteger(Math.sqrt(Number(r[1])))) return `√${r[1]} is ${Math.sqrt(Number(r[1]))}: the answer is not worked out`;
    // An exact form asked ("in terms of π", "surd form", "exact"): a decimal for a reference with π, a root or a
    // logarithm is a rounding, with or without a unit (tuned on I: the unit's path let "37.7 cm³" through).
    if (forms.exact && isDecimalLiteral(user.literal) && /π|pi|√|sqrt|log|ln/i.test(ref.literal) && !/π|pi|√|sqrt|log|ln/i.test(user.literal)) return 'the question asks for an exact answer, not a decimal';
    if (forms.mixed && !(user.mixed?.proper || /^-?\d+$/.test(user.literal))) return 'the question asks for a mixed number';
    if (forms.fraction && (/\./.test(user.literal) || user.percent)) return 'the question asks for a fraction';
    if (forms.decimal && (/\//.test(user.literal) || user.percent || user.mixed)) return 'the question asks for a decimal';
    if (forms.percent && !user.percent && !ref.percent && !/%|percent/.test(userText)) return 'the question asks for a percentage';
    if (forms.percent && !user.percent && ref.percent && isDecimalLiteral(user.literal) && Math.abs(Number(user.literal)) < 1.5) return 'the question asks for a percentage';
    if (forms.ordinary && SCIENTIFIC_WRITTEN.test(userText)) return 'the question asks for an ordinary number, not scientific notation';
    if (forms.logarithm && !/\b(?:log|ln|lg)/i.test(userText)) return 'the question asks for a single logarithm, not its value';
    if (forms.scientific && numeric && !/^-?[1-9](?:\.\d+)?\s*\*\s*10\s*\^\s*\(?\s*-?\d+\s*\)?$/.test(user.literal.replace(/\s*[x×]\s*/, '*'))) return 'the question asks for scientific notation (a × 10^n with 1 ≤ a < 10)';
    if (forms.units && (ref.unit || forms.target) && !user.unit) return 'the question asks for units';
    if (forms.target && user.unit && !sameUnit(user.unit, forms.target)) return `the question asks for the answer in ${forms.target.text}`;
    if (forms.simplest) {
      if (numeric) return numberNotSimplest(user, ref);
      const e = parse(user.expr);
      if (e && complexity(user.literal) > complexity(ref.literal) + 2) return `${user.literal} is not simplified as far as it goes`;
      if (e && !isSimplified(e) && complexity(user.literal) > complexity(ref.literal)) return `${user.literal} is not simplified as far as it goes`;
    }
    if (user.mixed && !user.mixed.proper) return `${user.literal} is not a proper mixed number`;
    if (forms.factored && !numeric) {
      // A reference that is no product (x^2 + 1 does not factor) asks for none.
      const product = (t: string) => /^-?\s*[\w.]*\s*\(/.test(t.trim()) || /\)\s*\^/.test(t);
      if (!product(user.literal) && product(ref.literal)) return 'the question asks for the factored form';
      const why = factorisationProblem(user.literal, ref.literal);
      if (why) return why;
    }
    if (forms.expanded && /\)\s*(?:\^|\(|[a-z\d])|[a-z\d]\s*\(/i.test(user.literal.replace(/\b(?:sqrt|sin|cos|tan|ln|log)\s*\(/g, ''))) return 'the question asks for the expanded form';
  }
  if (user.kind === 'intervals') {
    const signs = /[<>]/.test(userText);
    if (forms.intervalNotation && signs) return `the question asks for interval notation, in which it is ${user.pieces.map(showInterval).join(' ∪ ')}`;
    if (forms.inequality && !signs && !/\breal\b|ℝ/i.test(userText)) return `the question asks for an inequality, in which it is ${showInequality(user)}`;
  }
  if (user.kind === 'equation' && forms.slopeIntercept && !/^y$/i.test(user.lhs.trim())) return 'the question asks for slope-intercept form (y = mx + b)';
  if (user.kind === 'value' && user.mixed && !user.mixed.proper) return `${user.literal} is not a proper mixed number`;
  return null;
}
