/** Linear functions, systems, polynomials and quadratics. */
import type { Difficulty } from '../../types.ts';
import { polyCoeffs } from '../cas.ts';
import { at, casOf, gcd, generator, linText, num, polyText, q, qw, sameValue, samePoly, type Problem, type Rng } from './kit.ts';

// ---- lines ------------------------------------------------------------------------------------

/** Does an equation in x and y describe the line through both points (and not every point)? */
function isLine(eq: string, p1: [string, string], p2: [string, string]): boolean {
  const parts = eq.split('=');
  if (parts.length !== 2) return false;
  const F = `(${casOf(parts[0]!)})-(${casOf(parts[1]!)})`;
  try {
    const v = (x: string, y: string) => at(F, { x, y });
    if (v(...p1) !== '0' || v(...p2) !== '0') return false;
    // Not an identity: a point off the line does not satisfy it.
    return v(q(`${p1[0]}+1`), q(`${p1[1]}+1000`)) !== '0';
  } catch {
    return false;
  }
}

const slopeIntercept = (m: string, b: string) => `y = ${linText(m, b)}`;
const pointSlope = (m: string, x1: string, y1: string) => `y ${y1.startsWith('-') ? `+ ${y1.slice(1)}` : `- ${y1}`} = ${m === '1' ? '' : m === '-1' ? '-' : m.includes('/') ? `(${m})` : m}(x ${x1.startsWith('-') ? `+ ${x1.slice(1)}` : `- ${x1}`})`;

function slopeOf(rng: Rng, level: Difficulty): string {
  if (level === 'easy') return String(rng.int(1, 6));
  const den = rng.pick([1, 2, 3, 4, 5]);
  const s = q(`${rng.nonzero(-9, 9)}/${den}`);
  return s === '0' ? '1' : s;
}

function makeSlope(rng: Rng, level: Difficulty): Problem {
  const lim = level === 'hard' ? 40 : 9;
  const x1 = rng.int(-lim, lim);
  let x2 = rng.int(-lim, lim);
  if (x2 === x1) x2 = x1 + rng.int(1, 5);
  const m = level === 'easy' ? String(rng.int(-5, 5) || 2) : slopeOf(rng, level);
  const y1 = rng.int(-lim, lim);
  const y2 = q(`${y1}+(${m})*(${x2}-(${x1}))`);
  if (y2.includes('/')) return makeSlope(rng, level);
  return {
    prompt: `Find the slope of the line through (${x1}, ${y1}) and (${x2}, ${y2}).`,
    answer: m,
    wrongs: [
      { value: qw(`(${x2}-(${x1}))/(${y2}-(${y1}))`), why: 'divides the run by the rise' },
      { value: q(`-(${m})`), why: 'subtracts the coordinates in different orders' },
      { value: qw(`(${y2}+(${y1}))/(${x2}+(${x1}))`), why: 'adds the coordinates instead of subtracting' },
      { value: q(`${y2}-(${y1})`), why: 'gives only the rise' },
    ],
    steps: [`m = (y₂ − y₁)/(x₂ − x₁) = (${y2} − ${`(${y1})`})/(${x2} − (${x1})) = ${m}.`],
    verify: (v) => {
      // The point (x1, y1) moved by the run times v lands on (x2, y2).
      try {
        return sameValue(`${y1}+(${casOf(v)})*(${x2}-(${x1}))`, y2);
      } catch {
        return false;
      }
    },
    claim: (v) => `The slope through (${x1}, ${y1}) and (${x2}, ${y2}) is ${v}`,
    params: { x1, y1, x2, y2 },
  };
}

function makeSlopeIntercept(rng: Rng, level: Difficulty): Problem {
  const m = slopeOf(rng, level === 'easy' ? 'medium' : level);
  const b = String(rng.nonzero(-9, 9));
  const x1 = String(rng.nonzero(-6, 6));
  const y1 = q(`(${m})*${x1}+(${b})`);
  const x2 = q(`${x1}+${m.includes('/') ? m.split('/')[1] : 1}`);
  const y2 = q(`(${m})*(${x2})+(${b})`);
  const answer = slopeIntercept(m, b);
  const prompt =
    level === 'easy'
      ? `Write the equation of the line with slope ${m} and y-intercept ${b} in slope-intercept form.`
      : level === 'medium'
        ? `Write the equation of the line with slope ${m} through (${x1}, ${y1}) in slope-intercept form.`
        : `Write the equation of the line through (${x1}, ${y1}) and (${x2}, ${y2}) in slope-intercept form.`;
  return {
    prompt,
    answer,
    wrongs: [
      { value: slopeIntercept(b, m), why: 'swaps the slope and the intercept' },
      { value: slopeIntercept(m, q(`${y1}+(${m})*${x1}`)), why: 'adds m·x₁ instead of subtracting it when finding b' },
      { value: slopeIntercept(q(`-(${m})`), b), why: 'gets the sign of the slope wrong' },
      { value: slopeIntercept(m, q(`-(${b})`)), why: 'gets the sign of the intercept wrong' },
      { value: slopeIntercept(qw(`1/(${m})`) || '2', b), why: 'inverts the slope' },
    ],
    steps: [...(level === 'hard' ? [`Slope: (${y2} − (${y1}))/(${x2} − (${x1})) = ${m}.`] : []), ...(level !== 'easy' ? [`b = y₁ − m·x₁ = ${y1} − (${m})(${x1}) = ${b}.`] : []), `y = mx + b: ${answer}.`],
    verify: (v) => /^\s*y\s*=/.test(v) && isLine(v, [x1, y1], [x2, y2]),
    params: { m, b },
  };
}

function makePointSlope(rng: Rng, level: Difficulty): Problem {
  const m = level === 'easy' ? String(rng.int(2, 6)) : slopeOf(rng, 'medium');
  const x1 = String(level === 'easy' ? rng.int(1, 9) : rng.nonzero(-9, 9));
  const y1 = String(level === 'easy' ? rng.int(1, 9) : rng.nonzero(-9, 9));
  const x2 = q(`${x1}+${m.includes('/') ? m.split('/')[1] : 1}`);
  const y2 = q(`${y1}+(${m})*(${x2}-${x1})`);
  const answer = pointSlope(m, x1, y1);
  return {
    prompt:
      level === 'hard'
        ? `Write an equation in point-slope form of the line through (${x1}, ${y1}) and (${x2}, ${y2}), using the first point.`
        : `Write the equation in point-slope form of the line with slope ${m} through (${x1}, ${y1}).`,
    answer,
    wrongs: [
      { value: pointSlope(m, q(`-(${x1})`), q(`-(${y1})`)), why: 'uses the coordinates with the wrong signs' },
      { value: pointSlope(m, y1, x1), why: 'swaps x₁ and y₁' },
      { value: pointSlope(q(`-(${m})`), x1, y1), why: 'gets the sign of the slope wrong' },
      { value: pointSlope(qw(`1/(${m})`) || '3', x1, y1), why: 'inverts the slope' },
      { value: pointSlope(qw(`-1/(${m})`) || '-3', x1, y1), why: 'uses the negative reciprocal (a perpendicular slope)' },
      { value: pointSlope(q(`2*(${m})`), x1, y1), why: 'doubles the slope' },
    ],
    steps: [...(level === 'hard' ? [`Slope: (${y2} − (${y1}))/(${x2} − (${x1})) = ${m}.`] : []), `Point-slope form: y − y₁ = m(x − x₁) with m = ${m}, (x₁, y₁) = (${x1}, ${y1}).`],
    verify: (v) => /\(\s*x/.test(v) && isLine(v, [x1, y1], [x2, y2]),
    params: { m, x1, y1 },
  };
}

function makeParallel(rng: Rng, level: Difficulty): Problem {
  const perp = level === 'easy' ? false : level === 'medium' ? true : rng.chance(0.5);
  let m: string;
  let given: string;
  if (level === 'hard') {
    const [A, B] = [rng.nonzero(-6, 6), rng.nonzero(-6, 6)];
    const C = rng.int(-12, 12);
    m = q(`-(${A})/(${B})`);
    given = `${linText(A, 0)} ${B < 0 ? '-' : '+'} ${Math.abs(B) === 1 ? '' : Math.abs(B)}y = ${C}`;
  } else {
    m = slopeOf(rng, level === 'easy' ? 'easy' : 'medium');
    if (level === 'easy' && rng.chance(0.5)) m = q(`-(${m})`);
    given = slopeIntercept(m, String(rng.nonzero(-9, 9)));
  }
  if (m === '0') return makeParallel(rng, level);
  const slope = perp ? q(`-1/(${m})`) : m;
  const x1 = String(rng.nonzero(-6, 6));
  const y1 = String(rng.nonzero(-9, 9));
  const b = q(`${y1}-(${slope})*${x1}`);
  const x2 = q(`${x1}+${slope.includes('/') ? slope.split('/')[1] : 1}`);
  const y2 = q(`(${slope})*(${x2})+(${b})`);
  return {
    prompt: `Write the equation, in slope-intercept form, of the line ${perp ? 'perpendicular' : 'parallel'} to ${given} that passes through (${x1}, ${y1}).`,
    answer: slopeIntercept(slope, b),
    wrongs: [
      { value: slopeIntercept(perp ? m : q(`-1/(${m})`), q(`${y1}-(${perp ? m : q(`-1/(${m})`)})*${x1}`)), why: perp ? 'keeps the same slope (that is a parallel line)' : 'uses the negative reciprocal (that is a perpendicular line)' },
      { value: slopeIntercept(q(`-(${slope})`), q(`${y1}+(${slope})*${x1}`)), why: perp ? 'takes the reciprocal without changing the sign' : 'changes the sign of the slope' },
      { value: slopeIntercept(slope, q(`${y1}+(${slope})*${x1}`)), why: 'adds m·x₁ instead of subtracting it when finding b' },
      { value: slopeIntercept(slope, y1), why: 'uses the y-coordinate of the point as the intercept' },
    ],
    steps: [`The given line has slope ${m}.`, perp ? `A perpendicular line has the negative reciprocal slope ${slope}.` : `A parallel line has the same slope ${slope}.`, `b = ${y1} − (${slope})(${x1}) = ${b}.`],
    verify: (v) => /^\s*y\s*=/.test(v) && isLine(v, [x1, y1], [x2, y2]),
    params: { m, perp, x1, y1 },
  };
}

// ---- systems ----------------------------------------------------------------------------------

const eqText = (a: number, b: number, c: number | string) => `${linText(a, 0)} ${b < 0 ? '-' : '+'} ${Math.abs(b) === 1 ? '' : Math.abs(b)}y = ${c}`;

function systemProblem(method: 'substitution' | 'elimination', e1: string, e2: string, F1: string, F2: string, x: string, y: string, steps: string[]): Problem {
  const pair = (a: string, b: string) => `x = ${a}, y = ${b}`;
  const verify = (v: string) => {
    const m = /^\s*x\s*=\s*([^,]+),\s*y\s*=\s*(.+)$/.exec(v);
    if (!m) return false;
    try {
      const sub = { x: casOf(m[1]!), y: casOf(m[2]!) };
      return at(F1, sub) === '0' && at(F2, sub) === '0';
    } catch {
      return false;
    }
  };
  return {
    prompt: `Solve the system by ${method}: ${e1} and ${e2}.`,
    answer: pair(x, y),
    wrongs: [
      { value: pair(y, x), why: 'swaps the values of x and y' },
      { value: pair(q(`-(${x})`), y), why: 'gets the sign of x wrong' },
      { value: pair(x, q(`-(${y})`)), why: 'gets the sign of y wrong' },
      { value: pair(q(`${x}+1`), q(`${y}-1`)), why: 'makes an arithmetic slip in back-substitution' },
    ],
    steps: [...steps, `Check: x = ${x}, y = ${y} satisfies both equations.`],
    verify,
    claim: (v) => `The system ${e1}, ${e2} has the solution ${v}`,
    params: { method, F1, F2 },
  };
}

function makeSubstitution(rng: Rng, level: Difficulty): Problem {
  const x0 = level === 'hard' ? q(`${rng.nonzero(-9, 9)}/${rng.pick([2, 3])}`) : String(rng.int(-6, 6));
  const y0 = String(rng.int(-6, 6));
  if (sameValue(x0, y0)) return makeSubstitution(rng, level);
  if (level === 'easy') {
    const [m, n] = [rng.nonzero(-4, 4), rng.nonzero(-4, 4)];
    if (m === n) return makeSubstitution(rng, level);
    const [b, c] = [Number(y0) - m * Number(x0), Number(y0) - n * Number(x0)];
    const e1 = `y = ${linText(m, b)}`;
    const e2 = `y = ${linText(n, c)}`;
    return systemProblem('substitution', e1, e2, `y-(${m}*x+(${b}))`, `y-(${n}*x+(${c}))`, x0, y0, [`Set the two expressions for y equal: ${linText(m, b)} = ${linText(n, c)}, so x = ${x0}.`, `Substitute: y = ${y0}.`]);
  }
  const [a, b] = [rng.nonzero(-6, 6), rng.nonzero(-6, 6)];
  if (level === 'medium') {
    const m = rng.nonzero(-4, 4);
    const k = Number(y0) - m * Number(x0);
    if (a + b * m === 0) return makeSubstitution(rng, level);
    const c = a * Number(x0) + b * Number(y0);
    return systemProblem('substitution', `y = ${linText(m, k)}`, eqText(a, b, c), `y-(${m}*x+(${k}))`, `${a}*x+(${b})*y-(${c})`, x0, y0, [`Substitute y = ${linText(m, k)} into ${eqText(a, b, c)} and solve for x: x = ${x0}.`, `Then y = ${y0}.`]);
  }
  // x = ky + d, fractional x
  const k = rng.nonzero(-3, 3);
  const d = q(`${x0}-(${k})*${y0}`);
  if (a * k + b === 0) return makeSubstitution(rng, level);
  const c = q(`${a}*(${x0})+(${b})*${y0}`);
  const e1 = `x = ${linText(k, d, 'y')}`;
  return systemProblem('substitution', e1, eqText(a, b, c), `x-((${k})*y+(${d}))`, `${a}*x+(${b})*y-(${c})`, x0, y0, [`Substitute x = ${linText(k, d, 'y')} into the second equation and solve for y: y = ${y0}.`, `Then x = ${x0}.`]);
}

function makeElimination(rng: Rng, level: Difficulty): Problem {
  const x0 = String(rng.int(-7, 7));
  const y0 = String(rng.int(-7, 7));
  if (x0 === y0 || x0 === String(-Number(y0))) return makeElimination(rng, level);
  let a: number, b: number, c: number, d: number;
  if (level === 'easy') {
    [a, b, c] = [rng.nonzero(-5, 5), rng.int(1, 6), rng.nonzero(-5, 5)];
    d = -b;
  } else if (level === 'medium') {
    [a, b] = [rng.nonzero(-5, 5), rng.nonzero(-5, 5)];
    const k = rng.pick([-3, -2, 2, 3]);
    c = rng.nonzero(-5, 5);
    d = k * b + (rng.chance(0.5) ? 0 : 0);
    [a, c] = [a, a * k + rng.nonzero(-3, 3)];
  } else {
    [a, b, c, d] = [rng.nonzero(-7, 7), rng.nonzero(-7, 7), rng.nonzero(-7, 7), rng.nonzero(-7, 7)];
  }
  if (a * d - b * c === 0) return makeElimination(rng, level);
  const e = a * Number(x0) + b * Number(y0);
  const f = c * Number(x0) + d * Number(y0);
  return systemProblem('elimination', eqText(a, b, e), eqText(c, d, f), `${a}*x+(${b})*y-(${e})`, `${c}*x+(${d})*y-(${f})`, x0, y0, [
    level === 'easy' ? 'The y-coefficients are opposites: add the equations to eliminate y.' : 'Multiply the equations so that one variable\'s coefficients are opposites, then add them.',
    `Solve for the remaining variable, then substitute back: x = ${x0}, y = ${y0}.`,
  ]);
}

// ---- polynomials ------------------------------------------------------------------------------

function randPoly(rng: Rng, degree: number, full: boolean): number[] {
  const c = Array.from({ length: degree + 1 }, (_, i) => (i === 0 ? rng.nonzero(-9, 9) : full || rng.chance(0.7) ? rng.int(-9, 9) : 0));
  return c;
}

function makeAddSub(sub: boolean) {
  return (rng: Rng, level: Difficulty): Problem => {
    const deg = level === 'easy' ? 1 : level === 'medium' ? 2 : 3;
    const [p, r] = [randPoly(rng, deg, level !== 'hard'), randPoly(rng, deg, level !== 'hard')];
    const res = p.map((c, i) => (sub ? c - r[i]! : c + r[i]!));
    if (res.every((c) => c === 0) || res[0] === 0) return makeAddSub(sub)(rng, level);
    const P = polyText(p);
    const R = polyText(r);
    const shown = `(${P}) ${sub ? '−' : '+'} (${R})`;
    const expr = `(${casOf(P)})${sub ? '-' : '+'}(${casOf(R)})`;
    const answer = polyText(res);
    return {
      prompt: `${sub ? 'Subtract' : 'Add'} and simplify: ${shown}.`,
      answer,
      wrongs: [
        { value: polyText(p.map((c, i) => (sub ? c + r[i]! : c - r[i]!))), why: sub ? 'adds instead of subtracting' : 'subtracts instead of adding' },
        ...(sub ? [{ value: polyText(p.map((c, i) => (i === 0 ? c - r[i]! : c + r[i]! * (i === deg ? -1 : 1)))), why: 'subtracts only the first term of the second polynomial' }] : []),
        { value: polyText(res.map((c, i) => (i === deg ? -c : c))), why: 'gets the sign of the constant wrong' },
        { value: polyText(res.map((c, i) => (i === 0 ? c + 1 : c))), why: 'makes a slip in the leading coefficient' },
      ],
      steps: [sub ? 'Subtracting a polynomial is adding its opposite: change the sign of every term of the second one.' : 'Remove the parentheses.', 'Combine like terms, highest power first.', `${answer}.`],
      verify: (v) => samePoly(v, expr) && !v.includes('('),
      params: { expression: expr },
    };
  };
}

function makeMultiply(rng: Rng, level: Difficulty): Problem {
  let f: number[], g: number[];
  if (level === 'easy') {
    f = [rng.nonzero(-6, 6), 0];
    g = [rng.nonzero(-9, 9), rng.nonzero(-9, 9)];
  } else if (level === 'medium') {
    f = [rng.nonzero(-3, 3), rng.nonzero(-9, 9)];
    g = [rng.nonzero(-3, 3), rng.nonzero(-9, 9)];
  } else {
    f = [rng.nonzero(-3, 3), rng.nonzero(-6, 6)];
    g = [rng.nonzero(-3, 3), rng.nonzero(-6, 6), rng.nonzero(-6, 6)];
  }
  const prod = Array(f.length + g.length - 1).fill(0) as number[];
  f.forEach((a, i) => g.forEach((b, j) => (prod[i + j]! += a * b)));
  const F = polyText(f);
  const G = polyText(g);
  const shown = level === 'easy' ? `${F}(${G})` : `(${F})(${G})`;
  const expr = `(${casOf(F)})*(${casOf(G)})`;
  const answer = polyText(prod);
  const firstLast = Array(prod.length).fill(0) as number[];
  firstLast[0] = f[0]! * g[0]!;
  firstLast[prod.length - 1] = f[f.length - 1]! * g[g.length - 1]!;
  return {
    prompt: `Multiply and simplify: ${shown}.`,
    answer,
    wrongs: [
      { value: polyText(firstLast), why: 'multiplies only the first terms and the last terms' },
      { value: polyText(prod.map((c, i) => (i === prod.length - 1 ? -c : c))), why: 'gets the sign of the constant wrong' },
      { value: polyText(prod.map((c, i) => (i === 1 ? c + (f[0]! * (g[1] ?? 0) || 1) : c))), why: 'adds a middle product twice' },
      ...(level === 'easy' ? [{ value: polyText([f[0]! * g[0]!, g[1]!].concat([])), why: 'multiplies only the first term' }] : []),
    ],
    steps: ['Multiply every term of the first factor by every term of the second (distributive property).', 'Combine like terms.', `${answer}.`],
    verify: (v) => samePoly(v, expr) && !v.includes('('),
    params: { expression: expr },
  };
}

/** Coefficient list's gcd. */
const gcdAll = (xs: number[]) => xs.reduce((a, b) => gcd(a, b), 0);

function makeGcf(rng: Rng, level: Difficulty): Problem {
  const k = rng.int(2, 9);
  const p = level === 'easy' ? 0 : rng.int(1, 3);
  let inner: number[];
  do inner = level === 'hard' ? [rng.int(1, 9), rng.nonzero(-9, 9), rng.nonzero(-9, 9)] : [rng.int(1, 9), rng.nonzero(-9, 9)];
  while (gcdAll(inner) !== 1);
  // inner has a non-zero constant, so x^p is the whole power of x in the GCF.
  const full = [...inner.map((c) => c * k), ...Array(p).fill(0)];
  const shown = polyText(full);
  const mono = (c: number, e: number) => (e === 0 ? String(c) : `${c}x${e === 1 ? '' : `^${e}`}`);
  const fmt = (c: number, e: number, inn: number[]) => `${mono(c, e)}(${polyText(inn)})`;
  const answer = fmt(k, p, inner);
  const expr = casOf(shown);
  // Nothing common is left inside: the CAS's coefficients there are coprime and the constant term is not zero.
  const factoredOut = (v: string) => {
    const m = /^\s*(-?\d*)(x(?:\^(\d+))?)?\s*\((.*)\)\s*$/.exec(v);
    if (!m) return false;
    const cs = polyCoeffs(casOf(m[4]!)).map(Number);
    return cs[0] !== 0 && gcdAll(cs) === 1;
  };
  return {
    prompt: `Factor out the greatest common factor: ${shown}.`,
    answer,
    wrongs: [
      { value: fmt(k, p, inner.map((c, i) => (i === inner.length - 1 ? c * k : c))), why: 'does not divide the last term by the factor' },
      { value: fmt(k, p, inner.map((c, i) => (i === inner.length - 1 ? -c : c))), why: 'changes a sign inside the parentheses' },
      { value: fmt(k, p + 1, inner), why: 'takes out one power of x too many' },
    ],
    steps: [`The GCF of the coefficients is ${k}${p ? `; the lowest power of x in every term is x${p === 1 ? '' : `^${p}`}` : ''}.`, `Divide each term by ${mono(k, p)}: ${answer}.`],
    verify: (v) => samePoly(v, expr) && factoredOut(v),
    params: { expression: expr },
  };
}

function factorPairs(rng: Rng, level: Difficulty): [number, number, number, number] {
  // (p x + q)(r x + s)
  if (level === 'easy') return [1, rng.int(1, 9), 1, rng.int(1, 9)];
  if (level === 'medium') return [1, rng.nonzero(-9, 9), 1, rng.nonzero(-9, 9)];
  return [rng.int(2, 5), rng.nonzero(-7, 7), rng.int(1, 3), rng.nonzero(-7, 7)];
}

const factorText = (p: number, s: number) => `(${linText(p, s)})`;

function makeTrinomial(rng: Rng, level: Difficulty): Problem {
  const [p, qq, r, s] = factorPairs(rng, level);
  if (gcd(p, qq) !== 1 || gcd(r, s) !== 1 || (p === r && qq === s) || p * s + qq * r === 0) return makeTrinomial(rng, level);
  const coeffs = [p * r, p * s + qq * r, qq * s];
  const shown = polyText(coeffs);
  const answer = `${factorText(p, qq)}${factorText(r, s)}`;
  const linearFactors = (v: string) => (v.match(/\(/g) ?? []).length === 2 && !/\^/.test(v) && /^\s*\(/.test(v);
  return {
    prompt: `Factor completely: ${shown}.`,
    answer,
    wrongs: [
      { value: `${factorText(p, -qq)}${factorText(r, -s)}`, why: 'gets both signs wrong' },
      { value: `${factorText(p, s)}${factorText(r, qq)}`, why: 'pairs the constants with the wrong factors' },
      { value: `${factorText(p, -qq)}${factorText(r, s)}`, why: 'gets one sign wrong' },
      { value: `${factorText(p, qq + 1)}${factorText(r, s - 1)}`, why: 'picks two numbers with the right sum but the wrong product' },
    ],
    steps: [level === 'hard' ? `Find two numbers with product ${coeffs[0]! * coeffs[2]!} (a·c) and sum ${coeffs[1]} (b), split the middle term, and group.` : `Find two numbers with product ${coeffs[2]} and sum ${coeffs[1]}: ${qq} and ${s}.`, `${shown} = ${answer}.`],
    verify: (v) => linearFactors(v) && samePoly(v, casOf(shown)),
    params: { expression: casOf(shown) },
  };
}

function makeSquares(rng: Rng, level: Difficulty): Problem {
  const a = level === 'easy' ? 1 : rng.int(2, 9);
  const b = rng.int(1, level === 'easy' ? 20 : 12);
  if (gcd(a, b) !== 1) return makeSquares(rng, level);
  const k = level === 'hard' ? rng.int(2, 5) : 1;
  const two = level === 'hard' && rng.chance(0.5);
  const second = two ? `${b === 1 ? '' : b}y` : String(b);
  const sq = two ? `${b * b === 1 ? '' : b * b}y^2` : String(b * b);
  const shownK = two ? 1 : k;
  const shown = `${shownK * a * a === 1 ? '' : shownK * a * a}x^2 - ${two ? sq : shownK * b * b}`;
  const ax = `${a === 1 ? '' : a}x`;
  const pre = shownK === 1 ? '' : String(shownK);
  const answer = `${pre}(${ax} - ${second})(${ax} + ${second})`;
  const vars = two ? ['x', 'y'] : ['x'];
  const expr = casOf(shown);
  return {
    prompt: `Factor completely: ${shown}.`,
    answer,
    wrongs: [
      { value: `${pre}(${ax} - ${second})^2`, why: 'writes a perfect square instead of a difference of squares' },
      { value: `${pre}(${ax} + ${second})^2`, why: 'writes a perfect square instead of a difference of squares' },
      { value: `${pre}(${ax} - ${two ? sq : b * b})(${ax} + 1)`, why: 'does not take the square root of the second term' },
      ...(shownK > 1 ? [{ value: `(${ax} - ${second})(${ax} + ${second})`, why: `forgets the common factor ${shownK}` }] : []),
    ],
    steps: [...(shownK > 1 ? [`Take out the common factor ${shownK}.`] : []), `a² − b² = (a − b)(a + b) with a = ${ax}, b = ${second}.`, `${shown} = ${answer}.`],
    verify: (v) => samePoly(v, expr, vars) && !/\^/.test(v.replace(/^[^(]*/, '')) ,
    params: { expression: expr, vars },
  };
}

// ---- quadratics -------------------------------------------------------------------------------

/**
 * "x = r1, x = r2" are the roots of the quadratic F: as many values as asked, distinct, each making
 * ax^2 + bx + c zero. The CAS evaluates each value (radicals, fractions); the polynomial is then
 * evaluated in floating point (an exact expansion of radicals costs tens of milliseconds), and a
 * wrong root leaves a residue far above the tolerance.
 */
function rootsOf([a, b, c]: number[], count: number) {
  return (v: string): boolean => {
    const parts = v.split(',').map((s) => s.trim());
    if (parts.length !== count) return false;
    const vals = parts.map((p) => /^x\s*=\s*(.+)$/.exec(p)?.[1]);
    if (vals.some((x) => !x)) return false;
    try {
      const xs = vals.map((x) => num(casOf(x!)));
      if (xs.some((x) => !Number.isFinite(x))) return false;
      if (count === 2 && Math.abs(xs[0]! - xs[1]!) < 1e-9) return false;
      const scale = 1 + Math.abs(a!) + Math.abs(b!) + Math.abs(c!);
      return xs.every((x) => Math.abs(a! * x * x + b! * x + c!) < 1e-9 * scale * (1 + x * x));
    } catch {
      return false;
    }
  };
}

const roots = (rs: string[]) => [...rs].sort((a, b) => num(casOf(a)) - num(casOf(b))).map((r) => `x = ${r}`).join(', ');

function makeQuadFactoring(rng: Rng, level: Difficulty): Problem {
  const [p, qq, r, s] = level === 'hard' ? [rng.int(2, 5), rng.nonzero(-7, 7), 1, rng.nonzero(-7, 7)] : [1, rng.nonzero(-9, 9), 1, rng.nonzero(-9, 9)];
  const k = level === 'medium' ? rng.int(2, 4) : 1;
  if (gcd(p, qq) !== 1 || sameValue(`${-qq}/${p}`, `${-s}/${r}`)) return makeQuadFactoring(rng, level);
  const coeffs = [k * p * r, k * (p * s + qq * r), k * qq * s];
  const shown = `${polyText(coeffs)} = 0`;
  const F = casOf(polyText(coeffs));
  const [r1, r2] = [q(`${-qq}/${p}`), q(`${-s}/${r}`)];
  return {
    prompt: `Solve by factoring: ${shown}.`,
    answer: roots([r1, r2]),
    wrongs: [
      { value: roots([q(`-(${r1})`), q(`-(${r2})`)]), why: 'takes the numbers in the factors instead of solving each factor = 0' },
      { value: roots([r1, q(`-(${r2})`)]), why: 'gets the sign of one root wrong' },
      { value: roots([q(`${qq}`), q(`${s}`)]), why: 'gives the constants of the factors' },
      { value: roots([q(`${r1}+1`), r2]), why: 'makes a slip in one factor' },
    ],
    steps: [...(k > 1 ? [`Divide by the common factor ${k}.`] : []), `Factor: ${k > 1 ? k : ''}(${linText(p, qq)})(${linText(r, s)}) = 0.`, `Set each factor to 0: x = ${r1} or x = ${r2}.`],
    verify: rootsOf(coeffs, 2),
    claim: (v) => `The solutions of ${shown} are ${v}`,
    params: { expression: F },
  };
}

/** (−b ± √D)/(2a) simplified: "-2 - √3", "(3 + √5)/2". */
function formulaRoots(a: number, b: number, c: number): string[] {
  const D = b * b - 4 * a * c;
  if (D < 0) return [];
  let k = 1;
  let d = D;
  for (let f = 2; f * f <= d; f++) while (d % (f * f) === 0) (d /= f * f), (k *= f);
  if (d === 1) return [q(`(${-b}-${k})/(${2 * a})`), q(`(${-b}+${k})/(${2 * a})`)];
  const g = gcdAll([b, k, 2 * a]);
  const [B, K, A] = [-b / g, k / g, (2 * a) / g];
  const rad = `${K === 1 ? '' : K}√${d}`;
  const one = (sign: string) => (B === 0 ? `${sign === '-' ? '-' : ''}${rad}` : `${B} ${sign} ${rad}`);
  return A === 1 ? [one('-'), one('+')] : [`(${one('-')})/${A}`, `(${one('+')})/${A}`];
}

function makeFormula(rng: Rng, level: Difficulty): Problem {
  const a = level === 'hard' ? rng.int(2, 5) : 1;
  let b: number, c: number;
  if (level === 'easy') {
    const [r1, r2] = [rng.int(-9, 9), rng.int(-9, 9)];
    if (r1 === r2) return makeFormula(rng, level);
    [b, c] = [-(r1 + r2), r1 * r2];
  } else {
    [b, c] = [rng.nonzero(-9, 9), rng.nonzero(-9, 9)];
    const D = b * b - 4 * a * c;
    if (D <= 0 || Number.isInteger(Math.sqrt(D))) return makeFormula(rng, level);
  }
  const shown = `${polyText([a, b, c])} = 0`;
  const F = casOf(polyText([a, b, c]));
  const rs = formulaRoots(a, b, c);
  return {
    prompt: `Solve ${shown} using the quadratic formula. Give exact solutions.`,
    answer: rs.map((r) => `x = ${r}`).join(', '),
    wrongs: [
      { value: formulaRoots(a, -b, c).map((r) => `x = ${r}`).join(', '), why: 'uses +b instead of −b' },
      { value: formulaRoots(a, b, -c).map((r) => `x = ${r}`).join(', '), why: 'gets the sign of c wrong in b² − 4ac' },
      ...(a > 1 ? [{ value: formulaRoots(1, b, a * c).map((r) => `x = ${r}`).join(', '), why: 'divides by 2 instead of 2a' }] : [{ value: formulaRoots(1, 2 * b, 4 * c).map((r) => `x = ${r}`).join(', '), why: 'divides by a instead of 2a' }]),
    ],
    steps: [`a = ${a}, b = ${b}, c = ${c}; b² − 4ac = ${b * b - 4 * a * c}.`, `x = (−b ± √(b² − 4ac))/(2a) = ${rs.join(' or ')}.`],
    verify: rootsOf([a, b, c], 2),
    claim: (v) => `The solutions of ${shown} are ${v}`,
    params: { expression: F },
  };
}

function makeSquare(rng: Rng, level: Difficulty): Problem {
  const a = level === 'hard' ? rng.int(2, 4) : 1;
  const h = rng.nonzero(-7, 7);
  const k = rng.nonzero(-20, 20);
  // a(x + h)^2 + k expanded
  const coeffs = [a, 2 * a * h, a * h * h + k];
  const shownPoly = polyText(coeffs);
  const vertex = (A: number, H: number, K: number) => `${A === 1 ? '' : A}(x ${H < 0 ? '-' : '+'} ${Math.abs(H)})^2 ${K < 0 ? '-' : '+'} ${Math.abs(K)}`;
  if (level === 'medium') {
    // Solve x^2 + 2hx + c = 0 where (x + h)^2 = K > 0, K not a square.
    const K = rng.int(2, 30);
    if (Number.isInteger(Math.sqrt(K))) return makeSquare(rng, level);
    const c = h * h - K;
    const shown = `${polyText([1, 2 * h, c])} = 0`;
    const F = casOf(polyText([1, 2 * h, c]));
    const rs = [`${-h} - √${K}`, `${-h} + √${K}`];
    return {
      prompt: `Solve ${shown} by completing the square. Give exact solutions.`,
      answer: rs.map((r) => `x = ${r}`).join(', '),
      wrongs: [
        { value: [`${h} - √${K}`, `${h} + √${K}`].map((r) => `x = ${r}`).join(', '), why: 'takes h with the wrong sign' },
        { value: [`${-h} - √${K + 2 * h * h}`, `${-h} + √${K + 2 * h * h}`].map((r) => `x = ${r}`).join(', '), why: 'adds h² on one side only' },
        { value: [String(-h - K), String(-h + K)].map((r) => `x = ${r}`).join(', '), why: 'forgets the square root' },
      ],
      steps: [`Move the constant: ${polyText([1, 2 * h, 0])} = ${-c}.`, `Add (${2 * h}/2)² = ${h * h} to both sides: (x ${h < 0 ? '-' : '+'} ${Math.abs(h)})^2 = ${K}.`, `x = ${-h} ± √${K}.`],
      verify: rootsOf([1, 2 * h, c], 2),
      claim: (v) => `The solutions of ${shown} are ${v}`,
      params: { expression: F },
    };
  }
  const answer = vertex(a, h, k);
  return {
    prompt: `Write ${shownPoly} in the form ${a === 1 ? '' : 'a'}(x + h)^2 + k by completing the square.`,
    answer,
    wrongs: [
      { value: vertex(a, -h, k), why: 'takes h with the wrong sign' },
      { value: vertex(a, h, coeffs[2]!), why: 'forgets to subtract the square that was added' },
      { value: vertex(a, 2 * h, k), why: 'uses b instead of b/2' },
      { value: vertex(a, h, -k), why: 'gets the sign of k wrong' },
    ],
    steps: [...(a > 1 ? [`Factor ${a} out of the x-terms.`] : []), `Half of ${2 * h}${a > 1 ? '' : ''} is ${h}: add and subtract ${h * h}${a > 1 ? ` inside (that is ${a * h * h} outside)` : ''}.`, `${shownPoly} = ${answer}.`],
    verify: (v) => /\)\^2/.test(v) && samePoly(v, casOf(shownPoly)),
    params: { expression: casOf(shownPoly) },
  };
}

function makeDiscriminant(rng: Rng, level: Difficulty): Problem {
  const a = level === 'easy' ? 1 : rng.nonzero(-5, 5);
  const b = rng.int(-12, 12);
  let c = rng.nonzero(-12, 12);
  if (level === 'hard') {
    const kind = rng.int(0, 2);
    if (kind === 1 && b % 2 === 0 && a > 0) c = (b * b) / (4 * a);
    else if (kind === 1) return makeDiscriminant(rng, level);
  }
  if (!Number.isInteger(c)) return makeDiscriminant(rng, level);
  const D = b * b - 4 * a * c;
  const shown = `${polyText([a, b, c])} = 0`;
  if (level !== 'hard') {
    return {
      prompt: `Find the discriminant of ${shown}.`,
      answer: String(D),
      wrongs: [
        { value: String(b * b + 4 * a * c), why: 'adds 4ac instead of subtracting it' },
        { value: String(-b * b - 4 * a * c), why: 'squares −b as −b²' },
        { value: String(b * b - 2 * a * c), why: 'uses 2ac instead of 4ac' },
        { value: String(2 * b - 4 * a * c), why: 'doubles b instead of squaring it' },
      ],
      steps: [`a = ${a}, b = ${b}, c = ${c}.`, `b² − 4ac = ${b * b} − ${par4(4 * a * c)} = ${D}.`],
      verify: (v) => sameValue(v, `(${b})^2-4*(${a})*(${c})`),
      params: { a, b, c },
    };
  }
  const n = D > 0 ? 2 : D === 0 ? 1 : 0;
  return {
    prompt: `How many real solutions does ${shown} have? Answer with a number.`,
    answer: String(n),
    wrongs: [0, 1, 2].filter((x) => x !== n).map((x) => ({ value: String(x), why: x === 2 && n === 0 ? 'reads a negative discriminant as two solutions' : x === 1 ? 'takes any discriminant for one solution' : 'misreads the sign of the discriminant' })),
    steps: [`b² − 4ac = ${b * b} − ${par4(4 * a * c)} = ${D}.`, D > 0 ? 'Positive: two real solutions.' : D === 0 ? 'Zero: one real solution.' : 'Negative: no real solutions.'],
    verify: (v) => sameValue(v, String(num(`(${b})^2-4*(${a})*(${c})`) > 0 ? 2 : num(`(${b})^2-4*(${a})*(${c})`) === 0 ? 1 : 0)),
    params: { a, b, c },
  };
}
const par4 = (n: number) => (n < 0 ? `(${n})` : String(n));

export const FUNCTION_GENERATORS = [
  generator('slope', makeSlope),
  generator('slope-intercept', makeSlopeIntercept),
  generator('point-slope', makePointSlope),
  generator('parallel-perpendicular', makeParallel),
  generator('systems-substitution', makeSubstitution),
  generator('systems-elimination', makeElimination),
  generator('polynomial-addition', makeAddSub(false)),
  generator('polynomial-subtraction', makeAddSub(true)),
  generator('polynomial-multiplication', makeMultiply),
  generator('factor-gcf', makeGcf),
  generator('factor-trinomials', makeTrinomial),
  generator('difference-of-squares', makeSquares),
  generator('quadratic-factoring', makeQuadFactoring),
  generator('quadratic-formula', makeFormula),
  generator('completing-the-square', makeSquare),
  generator('discriminant', makeDiscriminant),
];
