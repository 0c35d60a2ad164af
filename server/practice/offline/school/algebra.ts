/** Roots, scientific notation, expressions, equations in one variable, literal equations and inequalities. */
import type { Difficulty } from '../../types.ts';
import { polyCoeffs } from '../cas.ts';
import type { TopicGenerator } from '../item.ts';
import { at, build, casOf, decimal, gcd, generator, linText, num, par, q, qw, sameValue, samePoly, signed, type Problem, type Rng } from './kit.ts';

// ---- roots and scientific notation ----------------------------------------------------------

function makeRoot(rng: Rng, level: Difficulty): Problem {
  if (level === 'easy') {
    const r = rng.int(2, 20);
    return {
      prompt: `Evaluate √${r * r}.`,
      answer: String(r),
      wrongs: [
        { value: String((r * r) / 2), why: 'halves the number instead of taking the square root' },
        { value: String(r + 1), why: 'misses the perfect square by one' },
        { value: String(-r), why: 'gives the negative root; √ means the principal (positive) root' },
        { value: String(r * r * r * r), why: 'squares instead of taking the root' },
      ],
      steps: [`${r} × ${r} = ${r * r}, so √${r * r} = ${r}.`],
      verify: (v) => sameValue(v, `sqrt(${r * r})`),
      params: { radicand: r * r },
    };
  }
  if (level === 'medium') {
    if (rng.chance(0.5)) {
      const r = rng.nonzero(-10, 10);
      return {
        prompt: `Evaluate the cube root ∛(${r ** 3}).`,
        answer: String(r),
        wrongs: [
          { value: String(-r), why: 'drops the sign; the cube root of a negative number is negative' },
          { value: decimal(`${r ** 3}/3`), why: 'divides by 3 instead of taking the cube root' },
          { value: String(r + 1), why: 'misses the perfect cube by one' },
        ],
        steps: [`${r} × ${r} × ${r} = ${r ** 3}.`],
        verify: (v) => sameValue(`(${casOf(v)})^3`, String(r ** 3)),
        params: { cube: r ** 3 },
      };
    }
    const [a, b] = [rng.int(1, 12), rng.int(2, 12)];
    if (gcd(a, b) !== 1) return makeRoot(rng, level);
    return {
      prompt: `Evaluate √(${a * a}/${b * b}).`,
      answer: `${a}/${b}`,
      wrongs: [
        { value: q(`${a * a}/${b}`), why: 'takes the root of the denominator only' },
        { value: q(`${a}/${b * b}`), why: 'takes the root of the numerator only' },
        { value: q(`${a * a}/${b * b}/2`), why: 'halves the fraction' },
        { value: q(`${b}/${a}`), why: 'turns the fraction upside down' },
      ],
      steps: [`√(${a * a}/${b * b}) = \u221A${a * a} / √${b * b} = ${a}/${b}.`],
      verify: (v) => sameValue(v, `sqrt(${a * a}/${b * b})`),
      params: { a, b },
    };
  }
  const s = rng.pick([2, 3, 5, 6, 7, 10, 11]);
  const k = rng.int(2, 9);
  const n = k * k * s;
  return {
    prompt: `Simplify √${n} completely.`,
    answer: `${k}√${s}`,
    wrongs: [
      { value: `${s}√${k}`, why: 'swaps the root and the factor outside' },
      { value: `${k * k}√${s}`, why: 'takes the square out without its root' },
      { value: `${k}√${s * 2}`, why: 'leaves a wrong factor inside' },
      { value: `${k + 1}√${s}`, why: 'takes out the wrong square' },
    ],
    steps: [`${n} = ${k * k} × ${s}, and ${k * k} is a perfect square.`, `√${n} = √${k * k} × √${s} = ${k}√${s}.`],
    verify: (v) => /\u221A\d/.test(v) && sameValue(v, `sqrt(${n})`) && !/^\s*1\u221A/.test(v),
    params: { radicand: n },
  };
}

/** "4.5 × 10^4" from a coefficient and an exponent. */
const sci = (c: string, e: number) => `${c} × 10^${e}`;

function makeSci(rng: Rng, level: Difficulty): Problem {
  const digits = rng.int(11, 99);
  const c = decimal(`${digits}/10`);
  const e = level === 'easy' ? rng.int(3, 9) : level === 'medium' ? -rng.int(2, 8) : rng.int(-6, 9);
  const isSci = (v: string) => {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*\u00D7\s*10\^\(?(-?\d+)\)?\s*$/.exec(v);
    return !!m && Math.abs(Number(m[1])) >= 1 && Math.abs(Number(m[1])) < 10;
  };
  if (level !== 'hard') {
    const value = decimal(`${c}*10^(${e})`);
    const plain = e < 0 ? (Number(c) * 10 ** e).toFixed(-e + 1).replace(/0+$/, '') : value;
    return {
      prompt: `Write ${plain} in scientific notation.`,
      answer: sci(c, e),
      wrongs: [
        { value: sci(c, -e), why: 'gets the sign of the exponent wrong' },
        { value: sci(c, e + 1), why: 'counts one place too many' },
        { value: sci(c, e - 1), why: 'counts one place too few' },
        { value: sci(decimal(`${digits}/100`), e), why: 'puts the decimal point before the first digit' },
      ],
      steps: [`Move the decimal point to just after the first non-zero digit: ${c}.`, `It moved ${Math.abs(e)} places, so the exponent is ${e}.`],
      verify: (v) => isSci(v) && sameValue(casOf(v).replace('10^', '10^'), `${c}*10^(${e})`),
      params: { value: plain },
    };
  }
  const mul = rng.chance(0.5);
  // Divisors whose quotients terminate.
  const c2 = mul ? decimal(`${rng.int(11, 49)}/10`) : rng.pick(['1.25', '1.6', '2', '2.5', '3.2', '4', '5', '8']);
  const e2 = rng.int(-5, 8);
  const exact = mul ? `${c}*10^(${e})*${c2}*10^(${e2})` : `${c}*10^(${e})/(${c2}*10^(${e2}))`;
  const v = num(exact);
  const expo = Math.floor(Math.log10(Math.abs(v)) + 1e-12);
  const coef = decimal(`(${exact})/10^(${expo})`);
  if (coef.length > 8) return makeSci(rng, level);
  return {
    prompt: `Compute (${sci(c, e)}) ${mul ? '×' : '÷'} (${sci(c2, e2)}). Write the answer in scientific notation.`,
    answer: sci(coef, expo),
    wrongs: [
      { value: sci(coef, mul ? e - e2 + (expo - (e + e2)) : e + e2 + (expo - (e - e2))), why: mul ? 'subtracts the exponents when multiplying' : 'adds the exponents when dividing' },
      { value: sci(coef, expo + 1), why: 'forgets to adjust the exponent' },
      { value: sci(coef, expo - 1), why: 'adjusts the exponent the wrong way' },
      { value: sci(coef, mul ? e * e2 : expo + 2), why: mul ? 'multiplies the exponents' : 'makes a slip with the exponents' },
    ],
    steps: [`${mul ? 'Multiply' : 'Divide'} the coefficients and ${mul ? 'add' : 'subtract'} the exponents, then move the point so the coefficient is between 1 and 10.`],
    verify: (val) => isSci(val) && sameValue(casOf(val), exact),
    params: { exact },
  };
}

// ---- expressions ------------------------------------------------------------------------------

const VARS = ['x', 'y', 'a', 'n', 'm', 'p'];

function makeSimplify(rng: Rng, level: Difficulty): Problem {
  const v = rng.pick(VARS);
  const w = v === 'y' ? 'x' : 'y';
  const lim = level === 'easy' ? 9 : 12;
  const [a, b] = [rng.nonzero(level === 'easy' ? 1 : -lim, lim), rng.nonzero(level === 'easy' ? 1 : -lim, lim)];
  const [c, d] = [rng.nonzero(-lim, lim), level === 'easy' ? 0 : rng.nonzero(-lim, lim)];
  const e = level === 'hard' ? rng.nonzero(-9, 9) : 0;
  const f = level === 'hard' ? rng.nonzero(-9, 9) : 0;
  if (a + b === 0 || (level === 'hard' && e + f === 0)) return makeSimplify(rng, level);
  const term = (k: number, s: string, first: boolean) => {
    const mag = Math.abs(k) === 1 && s ? s : `${Math.abs(k)}${s}`;
    return first ? `${k < 0 ? '-' : ''}${mag}` : `${k < 0 ? '-' : '+'} ${mag}`;
  };
  const parts: [number, string][] = [[a, v], [c, ''], [b, v]];
  if (d) parts.push([d, '']);
  if (level === 'hard') parts.splice(1, 0, [e, w]), parts.push([f, w]);
  const shown = parts.map(([k, s], i) => term(k, s, i === 0)).join(' ');
  const expr = parts.map(([k, s]) => `(${k})${s ? `*${s}` : ''}`).join('+');
  const vs = level === 'hard' ? [v, w] : [v];
  const collected = (k1: number, k2: number, k3: number) => {
    const t: [number, string][] = [[k1, v]];
    if (level === 'hard') t.push([k3, w]);
    t.push([k2, '']);
    return t.filter(([k]) => k !== 0).map(([k, s], i) => term(k, s, i === 0)).join(' ') || '0';
  };
  const answer = collected(a + b, c + d, e + f);
  return {
    prompt: `Simplify ${shown} by combining like terms.`,
    answer,
    wrongs: [
      { value: collected(a - b, c + d, e - f), why: 'loses the sign of a term when collecting' },
      { value: collected(a + b, c - d, e + f), why: 'subtracts a constant that is added' },
      { value: `${a + b + c + d}${v}`, why: 'adds the constants to the variable terms' },
      { value: collected(a + b + 1, c + d, e + f), why: `counts ${v} as 1${v} too many` },
    ],
    steps: [`Collect the ${v}-terms: ${a} + ${par(b)} = ${a + b}.`, ...(level === 'hard' ? [`Collect the ${w}-terms: ${e} + ${par(f)} = ${e + f}.`] : []), `Collect the constants: ${c} + ${par(d)} = ${c + d}.`],
    verify: (val) => samePoly(val, expr, vs) && countTerms(val) <= vs.length + 1,
    params: { expression: expr, vars: vs },
  };
}

/** Number of + / − separated terms at the top level (an answer with like terms left is not simplified). */
function countTerms(s: string): number {
  let depth = 0;
  let n = 1;
  const t = s.trim().replace(/^[-\u2212]/, '');
  for (const ch of t) {
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if ((ch === '+' || ch === '-' || ch === '−') && depth === 0) n++;
  }
  return n;
}

function makeExpand(rng: Rng, level: Difficulty): Problem {
  const v = rng.pick(VARS);
  const a = level === 'easy' ? rng.int(2, 9) : rng.nonzero(-9, 9);
  const [b, c] = [rng.nonzero(-9, 9), rng.nonzero(-12, 12)];
  if (Math.abs(a) === 1) return makeExpand(rng, level);
  let shown = `${a}(${linText(b, c, v)})`;
  let expr = `(${a})*((${b})*${v}+(${c}))`;
  let [X, C] = [a * b, a * c];
  let forgot = linText(a * b, c, v);
  if (level === 'hard') {
    const [d, e, f] = [rng.nonzero(-6, 6), rng.nonzero(-6, 6), rng.nonzero(-9, 9)];
    shown += ` ${d < 0 ? '−' : '+'} ${Math.abs(d)}(${linText(e, f, v)})`;
    expr += `+(${d})*((${e})*${v}+(${f}))`;
    X += d * e;
    C += d * f;
    forgot = linText(a * b + d * e, c + (d < 0 ? -f : f), v);
    if (X === 0) return makeExpand(rng, level);
  }
  const answer = linText(X, C, v);
  return {
    prompt: `Expand and simplify ${shown}.`,
    answer,
    wrongs: [
      { value: forgot, why: 'multiplies only the first term inside the parentheses' },
      { value: linText(X, -C, v), why: 'gets the sign of the constant wrong' },
      { value: linText(-X, C, v), why: 'gets the sign of the variable term wrong' },
      { value: linText(X, C + a, v), why: 'adds the factor to the constant' },
    ],
    steps: ['Multiply every term inside the parentheses by the factor in front (the distributive property).', ...(level === 'hard' ? ['Then combine like terms.'] : []), `${shown} = ${answer}.`],
    verify: (val) => !val.includes('(') && samePoly(val, expr, [v]),
    params: { expression: expr, vars: [v] },
  };
}

function makeFactorOut(rng: Rng, level: Difficulty): Problem {
  const v = rng.pick(VARS);
  const g = rng.int(2, 9) * (level === 'medium' && rng.chance(0.5) ? -1 : 1);
  let inner: number[];
  do inner = level === 'hard' ? [rng.int(1, 9), rng.nonzero(-9, 9), rng.nonzero(-9, 9)] : [rng.int(1, 9), rng.nonzero(-9, 9)];
  while (inner.reduce((x, y) => gcd(x, y)) !== 1);
  const innerText = (k: number[]) => (k.length === 3 ? `${linText(k[0]!, 0, `${v}^2`)} ${signed(k[1]!).replace(/(\d+)$/, `$1${v}`).replace(/ 1v$/, ` ${v}`)} ${signed(k[2]!)}` : linText(k[0]!, k[1]!, v));
  const full = inner.map((k) => k * g);
  const shown = innerText(full).replace(/\b1([a-z])/g, '$1');
  const expr = inner.length === 3 ? `(${full[0]})*${v}^2+(${full[1]})*${v}+(${full[2]})` : `(${full[0]})*${v}+(${full[1]})`;
  const fmt = (k: number, ks: number[]) => `${k}(${innerText(ks).replace(/\b1([a-z])/g, '$1')})`;
  const answer = fmt(g, inner);
  // Completely factored out: the coefficients left in the parentheses have no common factor (CAS coefficients).
  const primitive = (val: string) => {
    const m = /^\s*(-?\d+)\s*\((.*)\)\s*$/.exec(val.replace(/\u2212/g, '-'));
    if (!m) return false;
    return polyCoeffs(casOf(m[2]!), v).map((c) => Number(c)).reduce((x, y) => gcd(x, y), 0) === 1;
  };
  return {
    prompt: `Factor out the greatest common factor: ${shown}.`,
    answer,
    wrongs: [
      { value: fmt(g, inner.map((k, i) => (i === inner.length - 1 ? k * g : k))), why: 'does not divide the last term by the factor' },
      { value: fmt(g, inner.map((k, i) => (i === inner.length - 1 ? -k : k))), why: 'changes a sign inside the parentheses' },
      { value: fmt(-g, inner), why: 'takes out the factor with the wrong sign' },
    ],
    steps: [`The greatest common factor of the coefficients is ${Math.abs(g)}${g < 0 ? ' (taken out with the leading minus sign)' : ''}.`, `Divide each term by ${g}: ${answer}.`],
    verify: (val) => samePoly(val, expr, [v]) && primitive(val),
    params: { expression: expr, vars: [v] },
  };
}

function makeEvaluate(rng: Rng, level: Difficulty): Problem {
  const x = level === 'easy' ? rng.int(1, 9) : rng.nonzero(-6, 6);
  const y = rng.nonzero(-5, 5);
  const [a, b, c] = [rng.int(2, 9), rng.nonzero(-9, 9), rng.nonzero(-12, 12)];
  let shown: string, expr: string, vars: Record<string, number>, where: string;
  if (level === 'easy') {
    shown = linText(a, b);
    expr = `${a}*x+(${b})`;
    vars = { x };
    where = `x = ${x}`;
  } else if (level === 'medium') {
    shown = `${a}x^2 ${signed(b).replace(/(\d+)$/, '$1x')} ${signed(c)}`;
    expr = `${a}*x^2+(${b})*x+(${c})`;
    vars = { x };
    where = `x = ${x}`;
  } else {
    shown = `${a}x^2 ${signed(b).replace(/(\d+)$/, '$1xy')} ${signed(c).replace(/(\d+)$/, '$1y')}`;
    expr = `${a}*x^2+(${b})*x*y+(${c})*y`;
    vars = { x, y };
    where = `x = ${x} and y = ${y}`;
  }
  const value = at(expr, vars);
  const wrongSquare = level === 'easy' ? null : at(expr.replace('x^2', '(-1)*abs(x)^2'), vars);
  return {
    prompt: `Evaluate ${shown} when ${where}.`,
    answer: value,
    wrongs: [
      ...(wrongSquare && x < 0 ? [{ value: wrongSquare, why: `computes (${x})^2 as −${x * x}` }] : []),
      { value: at(expr.replace('x^2', '2*x'), vars), why: 'multiplies by 2 instead of squaring' },
      { value: at(`${expr}-2*(${b})${level === 'hard' ? '*x*y' : level === 'medium' ? '*x' : ''}`, vars), why: 'loses the sign of one term' },
      { value: q(`${value}+${a}`), why: 'adds the coefficient once more' },
      { value: at(expr, { x: -x, y }), why: 'substitutes the value with the wrong sign' },
    ],
    steps: [`Substitute ${where}: powers first, then products, then sums.`, `${shown} = ${value}.`],
    verify: (val) => sameValue(val, value),
    params: { expression: expr, vars },
  };
}

// ---- equations --------------------------------------------------------------------------------

/** x = v satisfies lhs = rhs (CAS substitution). */
function satisfies(lhs: string, rhs: string, v: string): boolean {
  const m = /^\s*x\s*=\s*(.+)$/.exec(v);
  if (!m) return false;
  try {
    return at(`(${lhs})-(${rhs})`, { x: casOf(m[1]!) }) === '0';
  } catch {
    return false;
  }
}

function equationProblem(lhs: string, rhs: string, shown: string, x: string, steps: string[], slips: { value: string; why: string }[]): Problem {
  return {
    prompt: `Solve for x: ${shown}`,
    answer: `x = ${x}`,
    wrongs: slips.map((s) => ({ value: `x = ${s.value}`, why: s.why })),
    steps: [...steps, `So x = ${x}. Check: substituting it makes both sides equal.`],
    verify: (v) => satisfies(lhs, rhs, v),
    claim: (v) => `The solution of ${shown} is ${v}`,
    params: { lhs, rhs, equation: shown },
  };
}

function makeOneStep(rng: Rng, level: Difficulty): Problem {
  const kind = rng.int(0, 3);
  const lim = level === 'easy' ? 20 : 40;
  const x0 = level === 'hard' ? (rng.chance(0.5) ? q(`${rng.nonzero(-30, 30)}/${rng.pick([2, 3, 4, 5])}`) : decimal(`${rng.nonzero(-99, 99)}/10`)) : String(level === 'easy' ? rng.int(1, lim) : rng.nonzero(-lim, lim));
  const a = level === 'easy' ? rng.int(2, 12) : rng.nonzero(-12, 12) || 2;
  const A = Math.abs(a) === 1 ? 3 : a;
  switch (kind) {
    case 0: {
      const rhs = q(`${x0}+${A}`);
      return equationProblem(`x+(${A})`, rhs, `x ${signed(A)} = ${rhs}`, x0, [`${A < 0 ? 'Add' : 'Subtract'} ${Math.abs(A)} ${A < 0 ? 'to' : 'from'} both sides.`], [
        { value: q(`${rhs}+${A}`), why: 'adds instead of subtracting' },
        { value: q(`${rhs}*${A}`), why: 'multiplies instead of subtracting' },
        { value: q(`-(${x0})`), why: 'gets the sign wrong' },
      ]);
    }
    case 1: {
      const rhs = q(`${x0}-${A}`);
      return equationProblem(`x-(${A})`, rhs, `x − ${par(A)} = ${rhs}`, x0, [`Add ${par(A)} to both sides.`], [
        { value: q(`${rhs}-${A}`), why: 'subtracts instead of adding' },
        { value: q(`${rhs}/${A}`), why: 'divides instead of adding' },
        { value: q(`-(${x0})`), why: 'gets the sign wrong' },
      ]);
    }
    case 2: {
      const rhs = q(`${A}*${x0}`);
      return equationProblem(`${A}*x`, rhs, `${A}x = ${rhs}`, x0, [`Divide both sides by ${A}.`], [
        { value: q(`${rhs}*${A}`), why: 'multiplies instead of dividing' },
        { value: q(`${rhs}-${A}`), why: 'subtracts instead of dividing' },
        { value: q(`-(${x0})`), why: 'gets the sign wrong' },
        { value: q(`${A}/(${rhs})`), why: 'divides the wrong way round' },
      ]);
    }
    default: {
      const rhs = q(`${x0}/${A}`);
      return equationProblem(`x/(${A})`, rhs, `x/${par(A)} = ${rhs}`, x0, [`Multiply both sides by ${A}.`], [
        { value: q(`${rhs}/${A}`), why: 'divides instead of multiplying' },
        { value: q(`${rhs}+${A}`), why: 'adds instead of multiplying' },
        { value: q(`-(${x0})`), why: 'gets the sign wrong' },
      ]);
    }
  }
}

function makeTwoStep(rng: Rng, level: Difficulty): Problem {
  const a = level === 'easy' ? rng.int(2, 9) : rng.nonzero(-9, 9);
  const A = Math.abs(a) === 1 ? 4 : a;
  const b = level === 'easy' ? rng.int(1, 20) : rng.nonzero(-20, 20);
  if (level === 'hard') {
    const c = rng.nonzero(-15, 15);
    const lhs = `x/(${A})+(${b})`;
    const shown = `x/${par(A)} ${signed(b)} = ${c}`;
    const x0 = q(`(${c}-(${b}))*${A}`);
    return equationProblem(lhs, String(c), shown, x0, [`${b < 0 ? 'Add' : 'Subtract'} ${Math.abs(b)} ${b < 0 ? 'to' : 'from'} both sides: x/${par(A)} = ${c - b}.`, `Multiply by ${A}.`], [
      { value: q(`(${c}+(${b}))*${A}`), why: 'moves the constant without changing its sign' },
      { value: q(`(${c}-(${b}))/${A}`), why: 'divides instead of multiplying' },
      { value: q(`${c}*${A}-(${b})`), why: 'multiplies before removing the constant' },
    ]);
  }
  const x0 = level === 'easy' ? rng.int(0, 12) : rng.nonzero(-12, 12);
  const c = A * x0 + b;
  return equationProblem(`${A}*x+(${b})`, String(c), `${linText(A, b)} = ${c}`, String(x0), [`${b < 0 ? 'Add' : 'Subtract'} ${Math.abs(b)} ${b < 0 ? 'to' : 'from'} both sides: ${A}x = ${c - b}.`, `Divide by ${A}.`], [
    { value: q(`(${c}+(${b}))/${A}`), why: 'moves the constant without changing its sign' },
    { value: q(`(${c}-(${b}))*${A}`), why: 'multiplies instead of dividing' },
    { value: q(`${c}/${A}-(${b})`), why: 'divides before removing the constant' },
    { value: q(`-(${x0})`), why: 'gets the sign wrong' },
  ]);
}

function makeMultiStep(rng: Rng, level: Difficulty): Problem {
  if (level === 'easy') {
    const [a, b] = [rng.int(2, 7), rng.nonzero(-6, 6)];
    if (a + b === 0) return makeMultiStep(rng, level);
    const c = rng.nonzero(-15, 15);
    const x0 = rng.int(-10, 10);
    const d = (a + b) * x0 + c;
    const shown = `${a}x ${signed(c)} ${b < 0 ? '−' : '+'} ${Math.abs(b) === 1 ? '' : Math.abs(b)}x = ${d}`;
    return equationProblem(`${a}*x+(${c})+(${b})*x`, String(d), shown, String(x0), [`Combine like terms: ${linText(a + b, c)} = ${d}.`, `Subtract ${par(c)}, then divide by ${a + b}.`], [
      { value: qw(`(${d}-(${c}))/(${a}-(${b}))`), why: 'combines the x-terms with the wrong sign' },
      { value: qw(`(${d}+(${c}))/(${a}+(${b}))`), why: 'moves the constant without changing its sign' },
      { value: qw(`(${d}-(${c}))/${a}`), why: 'forgets the second x-term' },
    ]);
  }
  const a = rng.nonzero(-9, 9);
  let c = rng.nonzero(-9, 9);
  if (c === a) c = a + 1 || 2;
  if (level === 'medium') {
    const x0 = rng.int(-10, 10);
    const b = rng.int(-20, 20);
    const d = (a - c) * x0 + b;
    return equationProblem(`${a}*x+(${b})`, `${c}*x+(${d})`, `${linText(a, b)} = ${linText(c, d)}`, String(x0), [`Collect the x-terms on the left: ${linText(a - c, b)} = ${d}.`, `Then ${a - c}x = ${d - b}, so divide by ${a - c}.`], [
      { value: qw(`(${d}+(${b}))/(${a}-(${c}))`), why: 'moves the constant without changing its sign' },
      { value: qw(`(${d}-(${b}))/(${a}+(${c}))`), why: 'moves the x-term without changing its sign' },
      { value: qw(`(${a}-(${c}))/(${d}-(${b}))`), why: 'divides the wrong way round' },
    ]);
  }
  const k = rng.nonzero(-9, 9);
  const d = rng.int(-25, 25);
  const lhs = `(${a})*(x+(${k}))`;
  const x0 = q(`(${d}-${a * k})/(${a}-(${c}))`);
  return equationProblem(lhs, `${c}*x+(${d})`, `${a}(${linText(1, k)}) = ${linText(c, d)}`, x0, [`Distribute: ${linText(a, a * k)} = ${linText(c, d)}.`, `Collect: ${a - c}x = ${d - a * k}.`], [
    { value: qw(`(${d}-(${k}))/(${a}-(${c}))`), why: `forgets to distribute ${a} over the parentheses` },
    { value: qw(`(${d}+${a * k})/(${a}-(${c}))`), why: 'moves the constant without changing its sign' },
    { value: qw(`(${d}-${a * k})/(${a}+(${c}))`), why: 'moves the x-term without changing its sign' },
  ]);
}

interface Formula {
  eq: string;
  lhs: string;
  rhs: string;
  /** Solved for `v`: the answer's right-hand side, and typical wrong ones. */
  v: string;
  sol: string;
  wrong: string[];
}

const F = (eq: string, lhs: string, rhs: string, v: string, sol: string, ...wrong: string[]): Formula => ({ eq, lhs, rhs, v, sol, wrong });

const FORMULAS: Record<Difficulty, Formula[]> = {
  easy: [
    F('A = lw', 'A', 'l*w', 'w', 'A/l', 'A*l', 'l/A', 'A-l'),
    F('A = lw', 'A', 'l*w', 'l', 'A/w', 'A*w', 'w/A', 'A-w'),
    F('d = rt', 'd', 'r*t', 't', 'd/r', 'd*r', 'r/d', 'd-r'),
    F('d = rt', 'd', 'r*t', 'r', 'd/t', 'd*t', 't/d', 'd-t'),
    F('F = ma', 'F', 'm*a', 'a', 'F/m', 'F*m', 'm/F', 'F-m'),
    F('F = ma', 'F', 'm*a', 'm', 'F/a', 'F*a', 'a/F', 'F-a'),
    F('W = Fd', 'W', 'F*d', 'd', 'W/F', 'W*F', 'F/W', 'W-F'),
    F('p = mv', 'p', 'm*v', 'v', 'p/m', 'p*m', 'm/p', 'p-m'),
    F('V = IR', 'V', 'I*R', 'R', 'V/I', 'V*I', 'I/V', 'V-I'),
    F('V = IR', 'V', 'I*R', 'I', 'V/R', 'V*R', 'R/V', 'V-R'),
    F('C = πd', 'C', 'pi*d', 'd', 'C/π', 'Cπ', 'π/C', 'C-π'),
    F('P = 4s', 'P', '4*s', 's', 'P/4', '4P', '4/P', 'P-4'),
    F('y = x + b', 'y', 'x+b', 'b', 'y - x', 'y + x', 'x - y', 'yx'),
    F('a = b - c', 'a', 'b-c', 'b', 'a + c', 'a - c', 'c - a', 'ac'),
    F('D = m/V', 'D', 'm/V', 'm', 'DV', 'D/V', 'V/D', 'D+V'),
    F('t = d/s', 't', 'd/s', 'd', 'ts', 't/s', 's/t', 't+s'),
  ],
  medium: [
    F('V = lwh', 'V', 'l*w*h', 'h', 'V/(lw)', 'Vlw', 'lw/V', 'V/l - w'),
    F('V = lwh', 'V', 'l*w*h', 'w', 'V/(lh)', 'Vlh', 'lh/V', 'V/l - h'),
    F('I = Prt', 'I', 'P*r*t', 'r', 'I/(Pt)', 'IPt', 'Pt/I', 'I - Pt'),
    F('I = Prt', 'I', 'P*r*t', 't', 'I/(Pr)', 'IPr', 'Pr/I', 'I - Pr'),
    F('I = Prt', 'I', 'P*r*t', 'P', 'I/(rt)', 'Irt', 'rt/I', 'I - rt'),
    F('A = (1/2)bh', 'A', 'b*h/2', 'h', '2A/b', 'A/(2b)', 'Ab/2', '2b/A'),
    F('A = (1/2)bh', 'A', 'b*h/2', 'b', '2A/h', 'A/(2h)', 'Ah/2', '2h/A'),
    F('C = 2πr', 'C', '2*pi*r', 'r', 'C/(2π)', '2πC', 'C - 2π', '2C/π'),
    F('P = 2l + 2w', 'P', '2*l+2*w', 'l', '(P - 2w)/2', 'P - 2w', '(P + 2w)/2', 'P/2 - 2w'),
    F('P = 2l + 2w', 'P', '2*l+2*w', 'w', '(P - 2l)/2', 'P - 2l', '(P + 2l)/2', 'P/2 - 2l'),
    F('y = ax + c', 'y', 'a*x+c', 'x', '(y - c)/a', '(y + c)/a', 'y/a - c', '(c - y)/a'),
    F('P = a + b + c', 'P', 'a+b+c', 'c', 'P - a - b', 'P + a + b', 'P - a + b', 'a + b - P'),
    F('v = u + at', 'v', 'u+a*t', 'a', '(v - u)/t', '(v + u)/t', 'v/t - u', '(u - v)/t'),
    F('v = u + at', 'v', 'u+a*t', 't', '(v - u)/a', '(v + u)/a', 'v/a - u', '(u - v)/a'),
    F('E = mc^2', 'E', 'm*c^2', 'm', 'E/c^2', 'Ec^2', 'E/(2c)', 'c^2/E'),
    F('V = Bh', 'V', 'B*h', 'h', 'V/B', 'VB', 'B/V', 'V - B'),
  ],
  hard: [
    F('ax + by = c', 'a*x+b*y', 'c', 'y', '(c - ax)/b', '(c + ax)/b', 'c/b - ax', '(ax - c)/b'),
    F('ax + by = c', 'a*x+b*y', 'c', 'x', '(c - by)/a', '(c + by)/a', 'c/a - by', '(by - c)/a'),
    F('A = (1/2)(a + b)h', 'A', '(a+b)*h/2', 'h', '2A/(a + b)', 'A/(2(a + b))', '2A - a - b', '(a + b)/(2A)'),
    F('A = (1/2)(a + b)h', 'A', '(a+b)*h/2', 'a', '2A/h - b', 'A/(2h) - b', '2A/h + b', '2A - bh'),
    F('F = (9/5)C + 32', 'F', '9*C/5+32', 'C', '(5/9)(F - 32)', '(5/9)F - 32', '(9/5)(F - 32)', '(5/9)(F + 32)'),
    F('C = (5/9)(F - 32)', 'C', '5*(F-32)/9', 'F', '(9/5)C + 32', '(9/5)C - 32', '(5/9)C + 32', '(9/5)(C + 32)'),
    F('S = 2lw + 2lh + 2wh', 'S', '2*l*w+2*l*h+2*w*h', 'h', '(S - 2lw)/(2l + 2w)', '(S + 2lw)/(2l + 2w)', 'S/(2l + 2w) - 2lw', '(S - 2lw)/(4lw)'),
    F('A = P(1 + rt)', 'A', 'P*(1+r*t)', 't', '(A - P)/(Pr)', '(A - 1)/(Pr)', '(A + P)/(Pr)', 'A/(Pr) - 1/r - P'),
    F('A = P(1 + rt)', 'A', 'P*(1+r*t)', 'P', 'A/(1 + rt)', 'A - rt', 'A(1 + rt)', 'A/rt - 1'),
    F('y - k = m(x - h)', 'y-k', 'm*(x-h)', 'x', '(y - k)/m + h', '(y - k)/m - h', '(y + k)/m + h', 'm(y - k) + h'),
    F('y - k = m(x - h)', 'y-k', 'm*(x-h)', 'm', '(y - k)/(x - h)', '(y + k)/(x - h)', '(x - h)/(y - k)', '(y - k)/(x + h)'),
    F('P = 2(l + w)', 'P', '2*(l+w)', 'w', 'P/2 - l', 'P - 2l', '(P - l)/2', 'P/2 + l'),
    F('K = (1/2)mv^2', 'K', 'm*v^2/2', 'm', '2K/v^2', 'K/(2v^2)', '2Kv^2', 'v^2/(2K)'),
    F('ax - b = c', 'a*x-b', 'c', 'x', '(c + b)/a', '(c - b)/a', 'c/a + b', 'a(c + b)'),
    F('T = a + (n - 1)d', 'T', 'a+(n-1)*d', 'd', '(T - a)/(n - 1)', '(T + a)/(n - 1)', '(T - a)/n - 1', '(T - a)(n - 1)'),
    F('T = a + (n - 1)d', 'T', 'a+(n-1)*d', 'a', 'T - (n - 1)d', 'T + (n - 1)d', 'T - nd - 1', '(T - d)/(n - 1)'),
  ],
};

/** Does `v = value` satisfy the formula identically (every other letter free)? Checked by the CAS at sample values. */
function solvesFormula(f: Formula, value: string): boolean {
  const m = new RegExp(`^\\s*${f.v}\\s*=\\s*(.+)$`).exec(value);
  if (!m) return false;
  const expr = casOf(m[1]!).replace(/\u03C0/g, 'pi');
  const letters = [...new Set(`${f.lhs} ${f.rhs}`.replace(/pi/g, '').match(/[A-Za-z]/g) ?? [])].filter((l) => l !== f.v);
  const samples = [[3, 7, 2, 5, 11, 13], [5, 2, 9, 4, 3, 17]];
  try {
    for (const s of samples) {
      const sub: Record<string, string> = {};
      letters.forEach((l, i) => (sub[l] = String(s[i % s.length]! + i)));
      const vv = at(withProducts(expr), sub);
      const d = at(`(${f.lhs})-(${f.rhs})`, { ...sub, [f.v]: `(${vv})` });
      if (d !== '0') return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** "Pr" -> "P*r", "2A" -> "2*A", "πr" -> "pi*r": every letter of a formula is one variable. */
function withProducts(expr: string): string {
  const s = expr.replace(/pi/g, 'Ω').replace(/([A-Za-z\u03A9)\d])(?=[A-Za-z\u03A9(])/g, '$1*').replace(/([A-Za-z\u03A9)\d])(?=[A-Za-z\u03A9(])/g, '$1*');
  return s.replace(/\u03A9/g, 'pi');
}

function makeLiteral(rng: Rng, level: Difficulty): Problem {
  return literalProblem(rng.pick(FORMULAS[level]));
}

function literalProblem(f: Formula): Problem {
  return {
    prompt: `Solve ${f.eq} for ${f.v}.`,
    answer: `${f.v} = ${f.sol}`,
    wrongs: f.wrong.map((w, i) => ({ value: `${f.v} = ${w}`, why: ['undoes an operation with the same operation instead of its inverse', 'turns the quotient upside down', 'undoes the operations in the wrong order', 'moves a term without changing its sign'][i % 4]! })),
    steps: [`Undo the operations around ${f.v} in reverse order, doing the same to both sides.`, `${f.v} = ${f.sol}.`],
    verify: (v) => solvesFormula(f, v),
    claim: (v) => `Solving ${f.eq} for ${f.v} gives ${v}`,
    params: { formula: f.eq, for: f.v },
  };
}

function makeInequality(rng: Rng, level: Difficulty): Problem {
  const a = level === 'easy' ? 1 : level === 'medium' ? rng.int(2, 9) : -rng.int(2, 9);
  const b = rng.nonzero(-15, 15);
  const bound = level === 'hard' ? q(`${rng.nonzero(-20, 20)}/${rng.pick([1, 2, 3])}`) : String(rng.int(-12, 12));
  const c = q(`${a}*(${bound})+(${b})`);
  const sign = rng.pick(['<', '≤', '>', '≥'] as const);
  const flip = a < 0;
  const solSign = flip ? ({ '<': '>', '≤': '≥', '>': '<', '≥': '≤' } as const)[sign] : sign;
  const interval = (s: string, k: string) => (s === '<' ? `(-∞, ${k})` : s === '≤' ? `(-∞, ${k}]` : s === '>' ? `(${k}, ∞)` : `[${k}, ∞)`);
  const opposite = ({ '<': '>', '≤': '≥', '>': '<', '≥': '≤' } as const)[solSign];
  const strictSwap = ({ '<': '≤', '≤': '<', '>': '≥', '≥': '>' } as const)[solSign];
  const lhs = a === 1 ? `x ${signed(b)}` : `${a}x ${signed(b)}`;
  const shown = `${lhs} ${sign} ${c}`;
  const holds = (x: number) => {
    const l = a * x + b;
    const r = num(c);
    return sign === '<' ? l < r - 1e-12 : sign === '≤' ? l <= r + 1e-12 : sign === '>' ? l > r + 1e-12 : l >= r - 1e-12;
  };
  const verify = (v: string) => {
    const m = /^\s*([([])\s*(-\u221E|[-\u2212\d./ ]+)\s*,\s*(\u221E|[-\u2212\d./ ]+)\s*([)\]])\s*$/.exec(v);
    if (!m) return false;
    const lo = m[2] === '-∞' ? -Infinity : num(casOf(m[2]!));
    const hi = m[3] === '∞' ? Infinity : num(casOf(m[3]!));
    if (!(lo < hi)) return false;
    const inside = (x: number) => (x > lo || (x === lo && m[1] === '[')) && (x < hi || (x === hi && m[4] === ']'));
    const k = num(bound);
    // The interval and the inequality agree at the boundary and on both sides of it, and far out.
    return [k, k - 0.5, k + 0.5, k - 1e3, k + 1e3].every((x) => inside(x) === holds(x)) && Number.isFinite(lo) !== Number.isFinite(hi);
  };
  return {
    prompt: `Solve ${shown}. Write the solution in interval notation.`,
    answer: interval(solSign, bound),
    wrongs: [
      { value: interval(opposite, bound), why: flip ? 'does not reverse the inequality when dividing by a negative number' : 'reverses the inequality without dividing by a negative' },
      { value: interval(strictSwap, bound), why: 'includes or excludes the endpoint wrongly' },
      { value: interval(solSign, q(`(${c}+(${b}))/(${a})`)), why: 'moves the constant without changing its sign' },
      { value: interval(solSign, q(`-(${bound})`)), why: 'gets the sign of the boundary wrong' },
    ],
    steps: [`${b < 0 ? 'Add' : 'Subtract'} ${Math.abs(b)} on both sides${a !== 1 ? `, then divide by ${a}` : ''}${flip ? ', reversing the inequality because the divisor is negative' : ''}: x ${solSign} ${bound}.`, `As an interval: ${interval(solSign, bound)}.`],
    verify,
    claim: (v) => `The solution of ${shown} is ${v}`,
    params: { a, b, sign, bound },
  };
}

export const ALGEBRA_GENERATORS = [
  generator('square-roots', makeRoot),
  generator('scientific-notation', makeSci),
  generator('simplify-expressions', makeSimplify),
  generator('expand-expressions', makeExpand),
  generator('factor-expressions', makeFactorOut),
  generator('evaluate-expressions', makeEvaluate),
  generator('one-step-equations', makeOneStep),
  generator('two-step-equations', makeTwoStep),
  generator('multi-step-equations', makeMultiStep),
  literalEquations(),
  generator('inequalities', makeInequality),
];

/**
 * Literal equations come from a list of formulas: a set shuffles each level's list once and gives
 * its k-th problem the k-th formula, so no formula is asked twice; a set that needs more problems
 * than a level has formulas is refused before any is made (capacityAt).
 */
function literalEquations(): TopicGenerator {
  const base = generator('literal-equations', makeLiteral);
  return {
    ...base,
    capacityAt: (d) => FORMULAS[d].length,
    forSet(setRng) {
      const order = Object.fromEntries((['easy', 'medium', 'hard'] as const).map((d) => [d, setRng.shuffle(FORMULAS[d])])) as Record<Difficulty, Formula[]>;
      return { ...this, forSet: undefined, make: (_rng, d, index) => build('literal-equations', literalProblem(order[d][index % order[d].length]!)) };
    },
  };
}
