/**
 * Which catalogue sub-topics a description names, narrowest first: "adding fractions" is
 * fraction-addition alone, "adding and subtracting fractions" those two, "fractions" all four
 * fraction operations (the description names the whole area). A matched phrase is removed before
 * later rules look, so "systems of equations by substitution" is not also "equations". Words no
 * rule and no exercise wording accounts for are returned as `leftover`: the caller refuses rather
 * than make a set about something else. Metadata only (no CAS).
 */
import { CATALOGUE, subTopicsOf, type SubTopicInfo } from './catalogue.ts';

type Op = 'add' | 'sub' | 'mul' | 'div';
const OPS: Record<Op, string> = {
  add: 'add|adding|addition|adds|sums?|plus',
  sub: 'subtract|subtracting|subtraction|subtracts|minus',
  mul: 'multiply|multiplying|multiplication|multiplies|times|products?',
  div: 'divide|dividing|division|divides|quotients?',
};
const OBJECTS: Record<string, string> = {
  fraction: 'fractions?|mixed numbers?|rational numbers?',
  decimal: 'decimals?|decimal numbers?',
  integer: 'integers?|negative numbers?|signed numbers?|positive and negative numbers|negatives',
  polynomial: 'polynomials?|binomials?',
};
/** Which sub-topic an operation on an object is; an absent pair (dividing polynomials) is not made. */
const OP_TOPIC: Record<string, Partial<Record<Op, string>>> = {
  fraction: { add: 'fraction-addition', sub: 'fraction-subtraction', mul: 'fraction-multiplication', div: 'fraction-division' },
  decimal: { add: 'decimal-addition', sub: 'decimal-subtraction', mul: 'decimal-multiplication', div: 'decimal-division' },
  integer: { add: 'integer-addition', sub: 'integer-subtraction', mul: 'integer-multiplication', div: 'integer-division' },
  polynomial: { add: 'polynomial-addition', sub: 'polynomial-subtraction', mul: 'polynomial-multiplication' },
};

const opWord = Object.values(OPS).join('|');
const opOf = (w: string): Op => (Object.keys(OPS) as Op[]).find((op) => new RegExp(`^(${OPS[op]})$`).test(w))!;
const objWord = Object.values(OBJECTS).join('|');
const objOf = (w: string): string => Object.keys(OBJECTS).find((o) => new RegExp(`^(${OBJECTS[o]})$`).test(w))!;
const SEP = '(?:\\s*,\\s*|\\s+(?:and|or|&)\\s+|\\s*,\\s*(?:and|or)\\s+)';
/** "adding and subtracting fractions", "multiplication and division of decimals". */
const OP_THEN_OBJECT = new RegExp(`\\b((?:${opWord})(?:${SEP}(?:${opWord}))*)\\s+(?:(?:of|with|on)\\s+)?(?:the\\s+)?(?:(?:two|like|unlike|proper|improper|positive|negative)\\s+)*(${objWord})\\b`, 'g');
/** "fraction addition", "decimals: adding and subtracting". */
const OBJECT_THEN_OP = new RegExp(`\\b(${objWord})\\s*:?\\s+((?:${opWord})(?:${SEP}(?:${opWord}))*)\\b`, 'g');

const all = (area: string) => subTopicsOf(area);
const ids = (...xs: string[]) => xs;

/** Phrases, most specific first; each names the sub-topics it asks for. */
const RULES: [RegExp, string[]][] = (
  [
    // Calculus first: "power rule" and "of polynomials" belong to it there.
    ['derivatives?(?: of polynomials?(?: functions?)?)?|differentiat\\w*(?: of)?(?: polynomials?)?|(?:the )?power rule(?: for derivatives)?|(?:the )?product rule', ids('derivatives')],
    ['(?:indefinite |definite )?(?:integrals?|antiderivatives?|anti-derivatives?)(?: of polynomials?(?: functions?)?)?|integrat\\w*(?: of)?(?: polynomials?)?', ids('integrals')],
    ['calculus', ids('derivatives', 'integrals')],
    // Number
    ['order of operations|pemdas|bodmas|bidmas|gemdas|mental math|arithmetic', ids('arithmetic')],
    // Percent conversions before fractions, decimals and percent on their own.
    ['(?:convert\\w*\\s+)?(?:fractions?|decimals?)(?:\\s+and\\s+decimals?)?\\s+(?:to|into|as)\\s+percent(?:age)?s?|percent(?:age)?s?\\s+(?:to|as|into)\\s+(?:fractions?|decimals?)(?:\\s+and\\s+decimals?)?|fractions,?\\s+decimals,?\\s+and\\s+percent(?:age)?s?|percent(?:age)? conversions?', ids('percent-conversion')],
    ['(?:fraction|decimal|integer) operations|operations (?:with|on) (?:fractions|decimals|integers)', []],
    // Polynomials and quadratics before "factoring", "equations" and "squares".
    ['difference (?:of|between) (?:two )?(?:perfect )?squares', ids('difference-of-squares')],
    ['(?:solv\\w* )?(?:quadratics?(?: equations?)? )?(?:by )?(?:completing|complete) the square', ids('completing-the-square')],
    ['(?:solv\\w* )?(?:quadratics?(?: equations?)? )?(?:by |using |with )?(?:the )?quadratic formula', ids('quadratic-formula')],
    ['discriminants?|(?:number|nature) of (?:the )?(?:real )?(?:solutions|roots)(?: of (?:a )?quadratics?(?: equations?)?)?', ids('discriminant')],
    ['(?:solv\\w+ )?quadratics?(?: equations?)? by factoring|factoring to solve quadratics?(?: equations?)?', ids('quadratic-factoring')],
    ['factor\\w* (?:quadratic )?(?:trinomials?|quadratics?(?: expressions?)?)', ids('factor-trinomials')],
    ['factor\\w* (?:out )?(?:the )?(?:greatest common factors?|gcfs?)(?: of polynomials?)?|(?:greatest common factors?|gcfs?) of polynomials?|factor\\w* polynomials? by (?:the )?(?:gcf|greatest common factor)', ids('factor-gcf')],
    ['factor\\w* (?:algebraic |linear )?expressions?|factor\\w* out (?:a )?common factors?', ids('factor-expressions')],
    ['factor\\w* polynomials?(?: completely)?|factoring', ids('factor-gcf', 'factor-trinomials', 'difference-of-squares')],
    ['quadratics?(?: equations?)?|second[- ]degree equations?', ids('quadratic-factoring', 'quadratic-formula', 'completing-the-square')],
    ['foil(?: method)?', ids('polynomial-multiplication')],
    // Systems
    ['(?:systems? of (?:linear )?equations |systems? )?(?:by|using) (?:the )?substitution(?: method)?|substitution method', ids('systems-substitution')],
    ['substitut\\w* (?:values )?into (?:algebraic )?expressions?|evaluat\\w* (?:algebraic )?expressions?', ids('evaluate-expressions')],
    ['(?:systems? of (?:linear )?equations |systems? )?(?:by|using) (?:the )?elimination(?: method)?|elimination method', ids('systems-elimination')],
    ['systems? of (?:linear )?equations|simultaneous (?:linear )?equations|linear systems?', ids('systems-substitution', 'systems-elimination')],
    // Lines
    ['slope[- ]intercept(?: form)?|y ?= ?mx ?\\+ ?b', ids('slope-intercept')],
    ['point[- ]slope(?: form)?', ids('point-slope')],
    ['parallel and perpendicular lines|parallel lines|perpendicular lines|parallel and perpendicular', ids('parallel-perpendicular')],
    ['slopes?(?: of (?:a )?lines?)?|slope formula|rate of change', ids('slope')],
    ['graph\\w* (?:linear )?(?:equations?|functions?)|graph\\w* lines?', ids('slope', 'slope-intercept')],
    ['linear functions?|equations? of (?:a )?lines?', ids('slope', 'slope-intercept', 'point-slope', 'parallel-perpendicular')],
    // Equations
    ['one[- ]step (?:linear )?equations?', ids('one-step-equations')],
    ['two[- ]step (?:linear )?equations?', ids('two-step-equations')],
    ['multi[- ]step (?:linear )?equations?|equations? with (?:the )?variables? on both sides|variables on both sides', ids('multi-step-equations')],
    ['literal equations?|rearrang\\w* formula[es]*|chang\\w* the subject(?: of (?:a |the )?formula[es]*)?|solv\\w* formula[es]* for (?:a )?(?:given )?variables?', ids('literal-equations')],
    ['systems? of (?:linear )?inequalities|compound inequalities|absolute value inequalities|quadratic inequalities', []],
    ['(?:linear |one[- ]variable )?inequalit(?:y|ies)', ids('inequalities')],
    ['(?:solv\\w* )?(?:linear )?equations? (?:with|involving|containing) (?:fractions|decimals|fractions and decimals|rational coefficients)|linear equations?|solving equations|equations? in one variable|solve for x|equations?', ids('one-step-equations', 'two-step-equations', 'multi-step-equations')],
    // Ratios and rates
    ['proportions?|proportional relationships?', ids('proportions')],
    ['unit rates?|unit prices?|unit pricing|better buys?|best buys?', ids('unit-rates')],
    ['speed,? distance,? (?:and )?time|distance,? (?:speed|rate),? (?:and )?time|average speed|rates?', ids('rates')],
    ['ratios?', ids('ratios')],
    // Percent
    ['(?:finding )?(?:the )?percent(?:age)?s? of (?:a )?(?:numbers?|quantity|quantities|amounts?)', ids('percent-of')],
    ['percent(?:age)? (?:change|increase|decrease)s?(?: and (?:increase|decrease|change)s?)?|percent(?:age)? increase and decrease|markups?|mark-ups?', ids('percent-change')],
    ['(?:simple |compound )?(?:and (?:simple |compound ))?interest', ids('simple-interest')],
    ['percent\\w*|%', ids('percent-of', 'percent-change', 'simple-interest', 'percent-conversion')],
    // Exponents, roots
    ['scientific notation', ids('scientific-notation')],
    ['(?:square|cube) roots?|(?:simplif\\w* )?radicals?|surds?', ids('square-roots')],
    ['(?:laws|rules|properties) of exponents|exponent (?:rules|laws|properties)|exponents?|powers?|indices|monomials?', ids('exponents')],
    // Expressions
    ['combin\\w* like terms|like terms|simplif\\w* (?:algebraic )?expressions?', ids('simplify-expressions')],
    ['distributive property|distributive law|expand\\w* (?:brackets|parentheses|expressions?)|expanding|distribut\\w+', ids('expand-expressions')],
    ['(?:algebraic )?expressions?', ids('simplify-expressions', 'expand-expressions', 'factor-expressions', 'evaluate-expressions')],
    // Geometry
    ['pythagorean theorem|pythagoras(?:\'s)?(?: theorem)?|pythagorean|hypotenuse', ids('pythagorean-theorem')],
    ['similar (?:figures|triangles|shapes|polygons|rectangles)|scale factors?|similarity', ids('similar-figures')],
    ['(?:area|circumference)s? (?:and (?:area|circumference) )?of (?:a )?circles?|circumference|circles?', ids('circles')],
    ['(?:the )?angles? (?:sum )?(?:in|of) (?:a )?triangles?|triangle angle sum|(?:triangle|triangles) angles?|angle sum of (?:a )?triangles?', ids('triangle-angles')],
    ['(?:interior|exterior)(?: and (?:interior|exterior))? angles?(?: of (?:regular )?polygons?)?|angles? (?:in|of) (?:regular )?polygons?|polygon angles?', ids('polygon-angles')],
    ['volumes?', ids('volume')],
    ['surface areas?', []],
    ['perimeters?', ids('perimeter')],
    ['areas?', ids('area')],
    ['angles?', ids('triangle-angles', 'polygon-angles')],
    ['geometry', all('geometry')],
    // Statistics
    ['measures? of (?:central )?tendency|central tendency', ids('mean', 'median', 'mode')],
    ['means?|averages?', ids('mean')],
    ['medians?', ids('median')],
    ['modes?', ids('mode')],
    ['ranges?', ids('range')],
    ['statistics|data analysis', ids('mean', 'median', 'mode', 'range')],
    ['probabilit(?:y|ies)|chance', ids('probability')],
    // Units
    ['metric(?: units?)?(?: conversions?| system| measurements?)?|(?:kilo|centi|milli)?(?:meters?|metres?|grams?|liters?|litres?)', ids('metric-conversion')],
    ['customary(?: units?)?(?: conversions?| measurements?)?|imperial(?: units?)?|feet|foot|inch(?:es)?|yards?|miles?|pounds?|ounces?|gallons?|quarts?|pints?|cups?', ids('customary-conversion')],
    ['unit conversions?|convert\\w* units|measurement conversions?|converting measurements|conversions?', ids('metric-conversion', 'customary-conversion')],
    // Broad names of number areas, after the operations
    ['fractions?|rational numbers', all('number').filter((t) => t.startsWith('fraction-'))],
    ['decimals?', all('number').filter((t) => t.startsWith('decimal-'))],
    ['integers?|negative numbers|signed numbers|positive and negative numbers', all('number').filter((t) => t.startsWith('integer-'))],
    ['polynomials?', all('polynomials')],
    ['pre-?algebra', ids('arithmetic', 'integer-addition', 'integer-subtraction', 'one-step-equations', 'two-step-equations', 'simplify-expressions', 'exponents')],
    ['algebra', ids('two-step-equations', 'multi-step-equations', 'systems-substitution', 'systems-elimination', 'quadratic-factoring', 'quadratic-formula')],
  ] as [string, string[]][]
).map(([src, t]) => [new RegExp(`(?<![\\w-])(?:${src})(?![\\w-])`, 'g'), t]);

/**
 * Words a description of a mathematics exercise may hold besides its topic: the form of the
 * exercise, the audience, the operations. Any other word asks for something no sub-topic makes.
 */
const CONTEXT = new Set(
  (
    'a an the and or of with for by in on to from using use about my our your this these into as at ' +
    'grade grades level year class unit chapter lesson review revision practice problem problems question questions exercise exercises worksheet quiz test ' +
    'homework set sets drill drills easy medium hard harder hardest basic simple advanced beginner beginners intro introduction intermediate challenging mixed more some ' +
    'math maths mathematics algebra algebraic pre numeric numerical skills fluency ' +
    'solve solving solved solution solutions simplify simplifying simplification evaluate evaluating evaluation compute computing computation calculate calculating calculation find finding determine determining write writing convert converting conversion ' +
    'add adding addition subtract subtracting subtraction multiply multiplying multiplication divide dividing division operations operation ' +
    'rule rules law laws property properties equation equations expression expressions variable variables unknown unknowns term terms coefficient coefficients ' +
    'formula formulas given form ' +
    'like unlike denominator denominators numerator numerators common lowest different same mixed number numbers whole integer integers negative positive decimal decimals ' +
    'word real life world one two three step steps multi single side sides both definite indefinite x y ' +
    'point points line lines graph graphs graphing ' +
    'shape shapes rectangle rectangles square squares triangle triangles right parallelogram parallelograms trapezoid trapezoids trapezium polygon polygons regular ' +
    'prism prisms rectangular triangular cube cubes cylinder cylinders cone cones sphere spheres solid solids figure figures missing length lengths side ' +
    'data set value values list lists ' +
    'units unit measurement measurements between ' +
    'kids students children middle high school elementary college sat act gcse ks ks2 ks3 common core'
  ).split(' '),
);

export interface SubTopicMatch {
  /** Catalogue ids, in the order named. */
  ids: string[];
  /** Words no sub-topic and no exercise wording accounts for. */
  leftover: string[];
  /** A rule matched a phrase that names no sub-topic made here ("surface area", "compound inequalities"). */
  unsupported: string[];
  /** The phrases matched to sub-topics. */
  matched: string[];
}

export function matchSubTopics(description: string): SubTopicMatch {
  let text = ` ${description.toLowerCase().replace(/[\u2019']/g, "'").replace(/[\u2013\u2014]/g, '-')} `;
  const out: string[] = [];
  const push = (id: string) => {
    if (!out.includes(id)) out.push(id);
  };
  const unsupported: string[] = [];
  const matched: string[] = [];
  // Operations on an object: each operation named, on its own.
  const pairs = (opsText: string, obj: string): boolean => {
    const ops = opsText.split(new RegExp(SEP)).map((w) => opOf(w.trim()));
    const topics = ops.map((op) => OP_TOPIC[objOf(obj)]![op]);
    if (topics.some((t) => t === undefined)) return false;
    topics.forEach((t) => push(t!));
    matched.push(`${opsText} ${obj}`);
    return true;
  };
  // An operation not made here ("dividing polynomials") stays whole, so that it is refused, not read as "polynomials".
  const keep = (m: string) => {
    unsupported.push(m.trim());
    return ` ${m.trim().replace(/\s+/g, '_')} `;
  };
  text = text.replace(OP_THEN_OBJECT, (m, ops: string, obj: string) => (pairs(ops, obj) ? ' ' : keep(m)));
  text = text.replace(OBJECT_THEN_OP, (m, obj: string, ops: string) => (pairs(ops, obj) ? ' ' : keep(m)));
  for (const [pattern, topics] of RULES) {
    text = text.replace(pattern, (m) => {
      if (topics.length === 0) unsupported.push(m.trim());
      else matched.push(m.trim());
      topics.forEach(push);
      return topics.length ? ' ' : ` ${m.replace(/\s+/g, '_')} `;
    });
  }
  const words = text
    .replace(/\bgrades?\s*\d+|\b\d+(st|nd|rd|th)\b|\byear\s*\d+|\bks\s*\d/g, ' ')
    .match(/[a-z_'-]+/g) ?? [];
  const leftover = out.length || unsupported.length ? [...new Set(words.filter((w) => !CONTEXT.has(w)).map((w) => w.replace(/_/g, ' ')))] : [];
  return { ids: out, leftover, unsupported, matched };
}

/**
 * Words that name a sub-topic but are everyday English too ("mountain ranges", "wetland areas",
 * "rates of reaction"): a description whose only mathematical words are these, with other words
 * left over, is not taken for mathematics.
 */
const EVERYDAY = /^(areas?|ranges?|modes?|means?|averages?|volumes?|rates?|interest|chance|powers?|circles?|angles?|cups?|feet|foot|pounds?|ounces?|miles?|yards?|inch(es)?|pints?|quarts?|gallons?|conversions?|similarity|indices|expressions?|products?|sums?|times|proportions?|ratios?|probabilit(y|ies)|statistics|metric|customary|imperial|meters?|metres?|grams?|liters?|litres?|(kilo|centi|milli)(meters?|metres?|grams?|liters?|litres?))$/;

/** Only everyday words matched, and other words left: the description is about something else. */
export function onlyEverydayWords(m: SubTopicMatch, description: string): boolean {
  return m.leftover.length > 0 && m.unsupported.length === 0 && m.matched.every((w) => EVERYDAY.test(w)) && !MATH_WORDS.test(description.replace(/\b(areas?|ranges?|modes?|means?|volumes?|rates?|angles?|circles?|ratios?|probabilit\w*|statistics)\b/gi, ''));
}

/** Words that make a description mathematical even when no sub-topic matches it (so it is never a vocabulary set). */
const MATH_WORDS = /\b(math\w*|algebra\w*|geometr\w*|arithmetic|calculus|trigonometr\w*|logarithm\w*|equations?|inequalit\w*|functions?|graphs?|slopes?|ratios?|fractions?|decimals?|integers?|percent\w*|exponents?|radicals?|polynomials?|quadratics?|factoring|factori[sz]\w*|angles?|triangles?|polygons?|circles?|perimeters?|areas?|volumes?|theorems?|statistics|probabilit\w*|median|matri(x|ces)|vectors?|sequences?|derivatives?|integrals?|proofs?|sine|cosine|trig|primes? numbers?|prime factori\w*|multiples?|divisib\w*|gcf|lcm|venn|coordinates?|congruen\w*|symmetry|parabolas?|hyperbolas?|asymptotes?|binomial|exponential|logs?)\b/i;

export function looksMathematical(description: string): boolean {
  if (MATH_WORDS.test(description)) return true;
  const m = matchSubTopics(description);
  return m.ids.length > 0 && !onlyEverydayWords(m, description);
}

const stem = (w: string) => w.toLowerCase().replace(/(ies)$/, 'y').replace(/(es|s)$/, '').replace(/ing$/, '');
const contentWords = (s: string) => new Set((s.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !CONTEXT.has(w) || /^(equation|expression|triangle|polygon|line|point|square|number|integer|decimal|formula)s?$/.test(w)).map(stem));

/** The sub-topics whose names and examples share most words with the description (at most `n`). */
export function nearestSubTopics(description: string, n = 4): SubTopicInfo[] {
  const want = contentWords(description);
  return CATALOGUE.map((t, i) => {
    const have = contentWords(`${t.name} ${t.examples.join(' ')} ${t.area.replace(/-/g, ' ')}`);
    return { t, i, s: [...want].filter((w) => have.has(w)).length };
  })
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, n)
    .map((x) => x.t);
}
