/** Geometry with numbers, statistics and probability, unit conversions. */
import type { Difficulty } from '../../types.ts';
import { casOf, decimal, gcd, generator, num, q, sameValue, type Problem, type Rng } from './kit.ts';

const UNITS = ['cm', 'm', 'in', 'ft'] as const;

/** A value with its unit (`12 cm`, `16π cm^2`), verified as a value: the unit is the question's. */
const withUnit = (v: string, unit: string) => `${v} ${unit}`;

function valueCheck(expected: string) {
  return (v: string) => sameValue(casOf(v), expected);
}

function makePerimeter(rng: Rng, level: Difficulty): Problem {
  const u = rng.pick(UNITS);
  if (level === 'easy') {
    const square = rng.chance(0.3);
    const [l, w] = square ? [rng.int(2, 30), 0] : [rng.int(3, 40), rng.int(2, 25)];
    const W = square ? l : w;
    if (!square && l === W) return makePerimeter(rng, level);
    const P = `2*(${l}+${W})`;
    return {
      prompt: square ? `A square has sides of ${l} ${u}. What is its perimeter, in ${u}?` : `A rectangle is ${l} ${u} long and ${W} ${u} wide. What is its perimeter, in ${u}?`,
      answer: withUnit(q(P), u),
      wrongs: [
        { value: withUnit(q(`${l}*${W}`), u), why: 'computes the area instead' },
        { value: withUnit(q(`${l}+${W}`), u), why: 'adds only two sides' },
        { value: withUnit(q(`2*${l}+${W}`), u), why: 'misses a side' },
      ],
      steps: [`P = 2(l + w) = 2(${l} + ${W}) = ${q(P)} ${u}.`],
      verify: valueCheck(P),
      params: { shape: square ? 'square' : 'rectangle' },
    };
  }
  if (level === 'medium') {
    if (rng.chance(0.5)) {
      let [a, b, c] = [rng.int(3, 20), rng.int(3, 20), rng.int(3, 20)];
      if (a + b <= c || a + c <= b || b + c <= a) return makePerimeter(rng, level);
      const P = `${a}+${b}+${c}`;
      return {
        prompt: `A triangle has sides of ${a} ${u}, ${b} ${u} and ${c} ${u}. What is its perimeter, in ${u}?`,
        answer: withUnit(q(P), u),
        wrongs: [
          { value: withUnit(q(`${a}*${b}/2`), u), why: 'computes an area instead' },
          { value: withUnit(q(`${a}+${b}`), u), why: 'adds only two sides' },
          { value: withUnit(q(`2*(${P})`), u), why: 'doubles the sum' },
        ],
        steps: [`P = ${a} + ${b} + ${c} = ${q(P)} ${u}.`],
        verify: valueCheck(P),
        params: { shape: 'triangle' },
      };
    }
    const [n, name] = rng.pick([[5, 'pentagon'], [6, 'hexagon'], [8, 'octagon'], [10, 'decagon'], [7, 'heptagon']] as const);
    const s = rng.int(2, 25);
    return {
      prompt: `A regular ${name} has sides of ${s} ${u}. What is its perimeter, in ${u}?`,
      answer: withUnit(String(n * s), u),
      wrongs: [
        { value: withUnit(String((n - 1) * s), u), why: 'counts one side too few' },
        { value: withUnit(String(4 * s), u), why: 'counts four sides' },
        { value: withUnit(String(n + s), u), why: 'adds the number of sides to the length' },
      ],
      steps: [`A regular ${name} has ${n} equal sides: P = ${n} × ${s} = ${n * s} ${u}.`],
      verify: valueCheck(String(n * s)),
      params: { shape: name },
    };
  }
  const w = rng.int(2, 30);
  const l = w + rng.int(1, 30);
  const P = 2 * (l + w);
  return {
    prompt: `A rectangle has a perimeter of ${P} ${u} and a width of ${w} ${u}. What is its length, in ${u}?`,
    answer: withUnit(String(l), u),
    wrongs: [
      { value: withUnit(String(P - w), u), why: 'subtracts the width only once and does not halve' },
      { value: withUnit(String(P / 2), u), why: 'halves the perimeter but does not subtract the width' },
      { value: withUnit(q(`${P}/2+${w}`), u), why: 'adds the width instead of subtracting it' },
      { value: withUnit(String(P - 2 * w), u), why: 'forgets to halve' },
    ],
    steps: [`P = 2(l + w), so l = P/2 − w = ${P / 2} − ${w} = ${l} ${u}.`],
    verify: (v) => sameValue(`2*(${casOf(v)}+${w})`, String(P)),
    params: { shape: 'rectangle' },
  };
}

function makeArea(rng: Rng, level: Difficulty): Problem {
  const u = rng.pick(UNITS);
  const sq = `${u}^2`;
  const kind = level === 'easy' ? rng.pick(['rectangle', 'square']) : level === 'medium' ? rng.pick(['triangle', 'parallelogram']) : rng.pick(['trapezoid', 'L-shape']);
  const [b, h] = [rng.int(2, 30), rng.int(2, 25)];
  let prompt: string, expr: string, wrongs: { expr: string; why: string }[], step: string;
  switch (kind) {
    case 'square':
      prompt = `A square has sides of ${b} ${u}. What is its area, in ${sq}?`;
      expr = `${b}^2`;
      wrongs = [{ expr: `4*${b}`, why: 'computes the perimeter instead' }, { expr: `2*${b}`, why: 'doubles the side instead of squaring it' }, { expr: `${b}^2/2`, why: 'halves the area' }];
      step = `A = s² = ${b}² = ${q(expr)}.`;
      break;
    case 'rectangle':
      prompt = `A rectangle is ${b} ${u} long and ${h} ${u} wide. What is its area, in ${sq}?`;
      expr = `${b}*${h}`;
      wrongs = [{ expr: `2*(${b}+${h})`, why: 'computes the perimeter instead' }, { expr: `${b}+${h}`, why: 'adds the sides' }, { expr: `${b}*${h}/2`, why: 'halves the area as for a triangle' }];
      step = `A = l × w = ${b} × ${h} = ${q(expr)}.`;
      break;
    case 'triangle':
      prompt = `A triangle has a base of ${b} ${u} and a height of ${h} ${u}. What is its area, in ${sq}?`;
      expr = `${b}*${h}/2`;
      wrongs = [{ expr: `${b}*${h}`, why: 'forgets to halve' }, { expr: `${b}+${h}`, why: 'adds base and height' }, { expr: `${b}*${h}/4`, why: 'halves twice' }];
      step = `A = ½ × b × h = ½ × ${b} × ${h} = ${q(expr)}.`;
      break;
    case 'parallelogram': {
      const side = h + rng.int(1, 6);
      prompt = `A parallelogram has a base of ${b} ${u}, a slanted side of ${side} ${u} and a height of ${h} ${u}. What is its area, in ${sq}?`;
      expr = `${b}*${h}`;
      wrongs = [{ expr: `${b}*${side}`, why: 'uses the slanted side instead of the height' }, { expr: `${b}*${h}/2`, why: 'halves as for a triangle' }, { expr: `2*(${b}+${side})`, why: 'computes the perimeter instead' }];
      step = `A = b × h = ${b} × ${h} = ${q(expr)} (the slanted side is not the height).`;
      break;
    }
    case 'trapezoid': {
      const a2 = b + rng.int(1, 12);
      prompt = `A trapezoid has parallel sides of ${b} ${u} and ${a2} ${u} and a height of ${h} ${u}. What is its area, in ${sq}?`;
      expr = `(${b}+${a2})*${h}/2`;
      wrongs = [{ expr: `(${b}+${a2})*${h}`, why: 'forgets to halve' }, { expr: `${b}*${a2}*${h}/2`, why: 'multiplies the parallel sides instead of adding them' }, { expr: `${a2}*${h}`, why: 'uses only the longer side' }];
      step = `A = ½(a + b)h = ½ × (${b} + ${a2}) × ${h} = ${q(expr)}.`;
      break;
    }
    default: {
      const [c, d] = [rng.int(1, b - 1 || 1), rng.int(1, h - 1 || 1)];
      if (b < 3 || h < 3) return makeArea(rng, level);
      prompt = `An L-shape is a ${b} ${u} by ${h} ${u} rectangle with a ${c} ${u} by ${d} ${u} rectangle cut from one corner. What is its area, in ${sq}?`;
      expr = `${b}*${h}-${c}*${d}`;
      wrongs = [{ expr: `${b}*${h}+${c}*${d}`, why: 'adds the cut-out instead of subtracting it' }, { expr: `${b}*${h}`, why: 'forgets the cut-out' }, { expr: `2*(${b}+${h})`, why: 'computes the perimeter instead' }];
      step = `A = ${b} × ${h} − ${c} × ${d} = ${q(expr)}.`;
    }
  }
  return {
    prompt,
    answer: withUnit(q(expr), sq),
    wrongs: wrongs.map((w) => ({ value: withUnit(q(w.expr), sq), why: w.why })),
    steps: [`${step.replace(/\.$/, '')} ${sq}.`],
    verify: valueCheck(expr),
    params: { shape: kind },
  };
}

function makeVolume(rng: Rng, level: Difficulty): Problem {
  const u = rng.pick(UNITS);
  const cu = `${u}^3`;
  const [a, b, c] = [rng.int(2, 15), rng.int(2, 12), rng.int(2, 10)];
  let prompt: string, expr: string, wrongs: { expr: string; why: string }[], step: string;
  const exact = level === 'hard';
  if (level === 'easy') {
    if (rng.chance(0.3)) {
      prompt = `A cube has edges of ${a} ${u}. What is its volume, in ${cu}?`;
      expr = `${a}^3`;
      wrongs = [{ expr: `${a}^2`, why: 'squares instead of cubing' }, { expr: `3*${a}`, why: 'multiplies by 3 instead of cubing' }, { expr: `6*${a}^2`, why: 'computes the surface area' }];
      step = `V = s³ = ${a}³`;
    } else {
      prompt = `A rectangular prism is ${a} ${u} long, ${b} ${u} wide and ${c} ${u} high. What is its volume, in ${cu}?`;
      expr = `${a}*${b}*${c}`;
      wrongs = [{ expr: `${a}+${b}+${c}`, why: 'adds the dimensions' }, { expr: `2*(${a}*${b}+${b}*${c}+${a}*${c})`, why: 'computes the surface area' }, { expr: `${a}*${b}`, why: 'computes only the base area' }];
      step = `V = l × w × h = ${a} × ${b} × ${c}`;
    }
  } else if (level === 'medium') {
    prompt = `A triangular prism has a triangular base with base ${a} ${u} and height ${b} ${u}, and a length of ${c} ${u}. What is its volume, in ${cu}?`;
    expr = `${a}*${b}/2*${c}`;
    wrongs = [{ expr: `${a}*${b}*${c}`, why: 'forgets to halve the triangle' }, { expr: `${a}*${b}/2`, why: 'gives only the base area' }, { expr: `${a}*${b}*${c}/3`, why: 'divides by 3 as for a pyramid' }];
    step = `V = (½ × ${a} × ${b}) × ${c}`;
  } else {
    const r = rng.int(1, 10);
    const h = rng.int(1, 12);
    const kind = rng.pick(['cylinder', 'cone', 'sphere'] as const);
    if (kind === 'cylinder') {
      prompt = `A cylinder has radius ${r} ${u} and height ${h} ${u}. What is its volume, in ${cu}? Give the exact answer in terms of π.`;
      expr = `pi*${r}^2*${h}`;
      wrongs = [{ expr: `pi*${2 * r}^2*${h}`, why: 'uses the diameter instead of the radius' }, { expr: `2*pi*${r}*${h}`, why: 'uses the circumference instead of the base area' }, { expr: `pi*${r}^2*${h}/3`, why: 'divides by 3 as for a cone' }];
      step = `V = πr²h = π × ${r}² × ${h}`;
    } else if (kind === 'cone') {
      const hh = 3 * rng.int(1, 5);
      prompt = `A cone has radius ${r} ${u} and height ${hh} ${u}. What is its volume, in ${cu}? Give the exact answer in terms of π.`;
      expr = `pi*${r}^2*${hh}/3`;
      wrongs = [{ expr: `pi*${r}^2*${hh}`, why: 'forgets the ⅓' }, { expr: `pi*${r}*${hh}/3`, why: 'does not square the radius' }, { expr: `pi*${r}^2*${hh}/2`, why: 'uses ½ instead of ⅓' }];
      step = `V = ⅓πr²h = ⅓ × π × ${r}² × ${hh}`;
    } else {
      const R = 3 * rng.int(1, 4);
      prompt = `A sphere has radius ${R} ${u}. What is its volume, in ${cu}? Give the exact answer in terms of π.`;
      expr = `4/3*pi*${R}^3`;
      wrongs = [{ expr: `4*pi*${R}^2`, why: 'computes the surface area' }, { expr: `pi*${R}^3`, why: 'forgets the 4/3' }, { expr: `4/3*pi*${R}^2`, why: 'squares the radius instead of cubing it' }];
      step = `V = (4/3)πr³ = (4/3) × π × ${R}³`;
    }
  }
  const show = (e: string) => (exact ? piText(e) : q(e));
  return {
    prompt,
    answer: withUnit(show(expr), cu),
    wrongs: wrongs.map((w) => ({ value: withUnit(show(w.expr), cu), why: w.why })),
    steps: [`${step} = ${show(expr)} ${cu}.`],
    verify: valueCheck(expr),
    params: { expression: expr },
  };
}

/** "16π", "(9/2)π", "π" from an expression that is a rational multiple of π. */
function piText(expr: string): string {
  const k = q(`(${expr})/pi`);
  return k === '1' ? 'π' : k.includes('/') ? `(${k})π` : `${k}π`;
}

function makeCircle(rng: Rng, level: Difficulty): Problem {
  const u = rng.pick(UNITS);
  const r = rng.int(1, 15);
  const useD = rng.chance(0.4);
  const given = useD ? `a diameter of ${2 * r} ${u}` : `a radius of ${r} ${u}`;
  if (level === 'easy') {
    const expr = `2*pi*${r}`;
    return {
      prompt: `A circle has ${given}. What is its circumference, in ${u}? Give the exact answer in terms of π.`,
      answer: withUnit(piText(expr), u),
      wrongs: [
        { value: withUnit(piText(`pi*${r}^2`), u), why: 'computes the area instead' },
        { value: withUnit(piText(useD ? `2*pi*${2 * r}` : `pi*${r}`), u), why: useD ? 'uses the diameter as the radius' : 'uses the radius as the diameter' },
        { value: withUnit(piText(`4*pi*${r}`), u), why: 'doubles twice' },
      ],
      steps: [`C = 2πr = πd with r = ${r}: C = ${piText(expr)} ${u}.`],
      verify: valueCheck(expr),
      params: { r },
    };
  }
  if (level === 'medium') {
    const expr = `pi*${r}^2`;
    return {
      prompt: `A circle has ${given}. What is its area, in ${u}^2? Give the exact answer in terms of π.`,
      answer: withUnit(piText(expr), `${u}^2`),
      wrongs: [
        { value: withUnit(piText(`2*pi*${r}`), `${u}^2`), why: 'computes the circumference instead' },
        { value: withUnit(piText(`pi*${2 * r}^2`), `${u}^2`), why: 'squares the diameter instead of the radius' },
        { value: withUnit(piText(`pi*2*${r}`), `${u}^2`), why: 'doubles the radius instead of squaring it' },
      ],
      steps: [`A = πr² with r = ${r}: A = ${piText(expr)} ${u}^2.`],
      verify: valueCheck(expr),
      params: { r },
    };
  }
  const fromArea = rng.chance(0.5);
  return {
    prompt: fromArea ? `A circle has an area of ${piText(`pi*${r}^2`)} ${u}^2. What is its radius, in ${u}?` : `A circle has a circumference of ${piText(`2*pi*${r}`)} ${u}. What is its radius, in ${u}?`,
    answer: withUnit(String(r), u),
    wrongs: fromArea
      ? [
          { value: withUnit(String(r * r), u), why: 'does not take the square root' },
          { value: withUnit(String(2 * r), u), why: 'gives the diameter' },
          { value: withUnit(q(`${r * r}/2`), u), why: 'halves instead of taking the square root' },
        ]
      : [
          { value: withUnit(String(2 * r), u), why: 'divides by π only, which gives the diameter' },
          { value: withUnit(q(`${r}/2`), u), why: 'divides by 2 once too often' },
          { value: withUnit(String(4 * r), u), why: 'doubles instead of halving' },
        ],
    steps: [fromArea ? `πr² = ${piText(`pi*${r}^2`)}, so r² = ${r * r} and r = ${r}.` : `2πr = ${piText(`2*pi*${r}`)}, so r = ${r}.`],
    verify: (v) => sameValue(casOf(v), String(r)),
    params: { r },
  };
}

function makeTriangleAngles(rng: Rng, level: Difficulty): Problem {
  const deg = (n: number | string) => `${n}°`;
  if (level === 'easy') {
    const a = rng.int(20, 100);
    const b = rng.int(10, 160 - a);
    const c = 180 - a - b;
    return {
      prompt: `Two angles of a triangle are ${a}° and ${b}°. What is the third angle, in degrees?`,
      answer: deg(c),
      wrongs: [
        { value: deg(360 - a - b), why: 'uses 360° as the angle sum' },
        { value: deg(a + b), why: 'adds the two angles' },
        { value: deg(90 - Math.abs(a - b) > 0 ? 90 - Math.abs(a - b) : c + 10), why: 'assumes a right angle' },
        { value: deg(c + 10), why: 'makes an arithmetic slip' },
      ],
      steps: [`The angles of a triangle add to 180°: 180 − ${a} − ${b} = ${c}.`],
      verify: (v) => sameValue(casOf(v), `180-${a}-${b}`),
      params: { a, b },
    };
  }
  if (level === 'medium') {
    if (rng.chance(0.5)) {
      const apex = 2 * rng.int(10, 79);
      const base = (180 - apex) / 2;
      return {
        prompt: `An isosceles triangle has a vertex angle of ${apex}° between its two equal sides. What is each base angle, in degrees?`,
        answer: deg(base),
        wrongs: [
          { value: deg(180 - apex), why: 'forgets to split the rest between the two base angles' },
          { value: deg(apex), why: 'takes the base angles equal to the vertex angle' },
          { value: deg((360 - apex) / 2), why: 'uses 360° as the angle sum' },
        ],
        steps: [`The two base angles are equal: (180 − ${apex}) ÷ 2 = ${base}.`],
        verify: (v) => sameValue(`2*(${casOf(v)})+${apex}`, '180'),
        params: { apex },
      };
    }
    const a = rng.int(10, 80);
    return {
      prompt: `A right triangle has one acute angle of ${a}°. What is the other acute angle, in degrees?`,
      answer: deg(90 - a),
      wrongs: [
        { value: deg(180 - a), why: 'forgets the right angle' },
        { value: deg(90 + a), why: 'adds instead of subtracting' },
        { value: deg(a), why: 'takes the two acute angles as equal' },
      ],
      steps: [`The acute angles of a right triangle add to 90°: 90 − ${a} = ${90 - a}.`],
      verify: (v) => sameValue(casOf(v), `90-${a}`),
      params: { a },
    };
  }
  // Angles x, kx, mx + c summing to 180.
  const [k, m] = [rng.int(2, 4), rng.int(1, 3)];
  const x = rng.int(8, 30);
  const c = 180 - x * (1 + k + m);
  if (c <= -x * m + 5 || Math.abs(c) > 60) return makeTriangleAngles(rng, level);
  const third = `${m === 1 ? '' : m}x ${c < 0 ? '−' : '+'} ${Math.abs(c)}`;
  return {
    prompt: `The angles of a triangle are x°, ${k}x° and (${third})°. Find x.`,
    answer: `x = ${x}`,
    wrongs: [
      { value: `x = ${q(`(360-(${c}))/(${1 + k + m})`)}`, why: 'uses 360° as the angle sum' },
      { value: `x = ${q(`(180+(${c}))/(${1 + k + m})`)}`, why: 'moves the constant without changing its sign' },
      { value: `x = ${q(`(180-(${c}))/(${k + m})`)}`, why: 'forgets the angle x itself' },
      { value: `x = ${x + 1}`, why: 'makes an arithmetic slip' },
    ],
    steps: [`x + ${k}x + ${third} = 180, so ${1 + k + m}x = ${180 - c} and x = ${x}.`],
    verify: (v) => /^\s*x\s*=/.test(v) && sameValue(`(${1 + k + m})*(${casOf(v)})+(${c})`, '180'),
    params: { k, m, c },
  };
}

const POLYGONS: [number, string][] = [[5, 'pentagon'], [6, 'hexagon'], [7, 'heptagon'], [8, 'octagon'], [9, 'nonagon'], [10, 'decagon'], [12, 'dodecagon']];

function makePolygonAngles(rng: Rng, level: Difficulty): Problem {
  // Medium asks for each angle: only polygons whose angles are whole or terminating.
  const [n, name] = rng.chance(0.5) ? rng.pick(level === 'medium' ? POLYGONS.filter(([k]) => k !== 7 && k !== 9 || k === 9) : POLYGONS) : (() => {
    const k = level === 'medium' ? rng.pick([15, 16, 18, 20, 24, 25, 30, 32, 36, 40, 45, 48, 50]) : rng.int(11, 30);
    return [k, `${k}-sided polygon`] as [number, string];
  })();
  if (level === 'medium' && n === 7) return makePolygonAngles(rng, level);
  if (level === 'easy') {
    return {
      prompt: `What is the sum of the interior angles of a ${name}, in degrees?`,
      answer: `${(n - 2) * 180}°`,
      wrongs: [
        { value: `${n * 180}°`, why: 'multiplies n by 180 instead of n − 2' },
        { value: `${(n - 1) * 180}°`, why: 'uses n − 1 triangles' },
        { value: `${n * 360}°`, why: 'multiplies n by 360' },
        { value: '360°', why: 'gives the sum of the exterior angles' },
      ],
      steps: [`A polygon with n sides splits into n − 2 triangles: (${n} − 2) × 180° = ${(n - 2) * 180}°.`],
      verify: (v) => sameValue(casOf(v), `(${n}-2)*180`),
      params: { n },
    };
  }
  if (level === 'medium') {
    const exterior = rng.chance(0.4);
    const value = exterior ? `360/${n}` : `(${n}-2)*180/${n}`;
    return {
      prompt: `What is the measure of each ${exterior ? 'exterior' : 'interior'} angle of a regular ${name}, in degrees?`,
      answer: `${decimal(value)}°`,
      wrongs: exterior
        ? [
            { value: `${decimal(`(${n}-2)*180/${n}`)}°`, why: 'gives the interior angle' },
            { value: `${decimal(`180/${n}`)}°`, why: 'divides 180° instead of 360°' },
            { value: `${360 * n}°`, why: 'multiplies instead of dividing' },
          ]
        : [
            { value: `${decimal(`360/${n}`)}°`, why: 'gives the exterior angle' },
            { value: `${(n - 2) * 180}°`, why: 'gives the sum, not each angle' },
            { value: `${decimal(`${n}*180/(${n}-2)`)}°`, why: 'divides the wrong way round' },
          ],
      steps: [exterior ? `The exterior angles add to 360°: 360 ÷ ${n} = ${decimal(value)}°.` : `Interior sum (${n} − 2) × 180 = ${(n - 2) * 180}°, shared by ${n} angles: ${decimal(value)}°.`],
      verify: (v) => sameValue(casOf(v), value),
      params: { n, exterior },
    };
  }
  const divisors = [3, 4, 5, 6, 8, 9, 10, 12, 15, 18, 20, 24, 30, 36, 40, 45, 60, 72];
  const m = rng.pick(divisors);
  const interior = 180 - 360 / m;
  const ask = rng.chance(0.5);
  return {
    prompt: ask ? `Each interior angle of a regular polygon is ${interior}°. How many sides does it have?` : `Each exterior angle of a regular polygon is ${360 / m}°. How many sides does it have?`,
    answer: String(m),
    wrongs: [
      { value: decimal(ask ? `360/${interior}` : `180/${360 / m}`), why: ask ? 'divides 360° by the interior angle instead of the exterior' : 'divides 180° instead of 360°' },
      { value: String(m + 2), why: 'adds 2 as in the interior-sum formula' },
      { value: String(m - 1), why: 'makes an off-by-one slip' },
    ],
    steps: [`Each exterior angle is ${ask ? `180 − ${interior} = ` : ''}${360 / m}\u00B0; n = 360 \u00F7 ${360 / m} = ${m}.`],
    verify: (v) => sameValue(`360/(${casOf(v)})`, String(360 / m)),
    params: { m },
  };
}

const TRIPLES = [[3, 4, 5], [5, 12, 13], [8, 15, 17], [7, 24, 25], [20, 21, 29], [9, 40, 41], [12, 35, 37], [11, 60, 61]];

function makePythagoras(rng: Rng, level: Difficulty): Problem {
  const u = rng.pick(UNITS);
  if (level === 'hard') {
    const [a, b] = [rng.int(1, 12), rng.int(1, 12)];
    const s = a * a + b * b;
    if (Number.isInteger(Math.sqrt(s))) return makePythagoras(rng, level);
    // √s simplified
    let k = 1;
    let d = s;
    for (let f = 2; f * f <= d; f++) while (d % (f * f) === 0) (d /= f * f), (k *= f);
    const exact = `${k === 1 ? '' : k}√${d}`;
    return {
      prompt: `A right triangle has legs of ${a} ${u} and ${b} ${u}. What is the exact length of the hypotenuse, in ${u}? Simplify the radical.`,
      answer: withUnit(exact, u),
      wrongs: [
        { value: withUnit(String(a + b), u), why: 'adds the legs' },
        { value: withUnit(String(s), u), why: 'forgets the square root' },
        { value: withUnit(`√${Math.abs(a * a - b * b) || 2}`, u), why: 'subtracts the squares' },
        { value: withUnit(`√${2 * a + 2 * b}`, u), why: 'doubles the legs instead of squaring them' },
      ],
      steps: [`c² = ${a}² + ${b}² = ${s}, so c = √${s} = ${exact}.`],
      verify: (v) => sameValue(casOf(v), `sqrt(${s})`),
      params: { a, b },
    };
  }
  const [p, r, hyp] = rng.pick(TRIPLES);
  const k = rng.int(1, level === 'easy' ? 3 : 4);
  const [A, B, C] = [p! * k, r! * k, hyp! * k];
  if (level === 'easy') {
    return {
      prompt: `A right triangle has legs of ${A} ${u} and ${B} ${u}. How long is the hypotenuse, in ${u}?`,
      answer: withUnit(String(C), u),
      wrongs: [
        { value: withUnit(String(A + B), u), why: 'adds the legs' },
        { value: withUnit(String(C * C), u), why: 'forgets the square root' },
        { value: withUnit(decimal(`sqrt(${B * B - A * A})`), u), why: 'subtracts the squares' },
      ],
      steps: [`c² = ${A}² + ${B}² = ${C * C}, so c = ${C}.`],
      verify: (v) => sameValue(`(${casOf(v)})^2`, `${A}^2+${B}^2`),
      params: { A, B },
    };
  }
  return {
    prompt: `A right triangle has a hypotenuse of ${C} ${u} and one leg of ${A} ${u}. How long is the other leg, in ${u}?`,
    answer: withUnit(String(B), u),
    wrongs: [
      { value: withUnit(decimal(`sqrt(${C * C + A * A})`), u), why: 'adds the squares instead of subtracting' },
      { value: withUnit(String(C - A), u), why: 'subtracts the lengths' },
      { value: withUnit(String(B * B), u), why: 'forgets the square root' },
    ],
    steps: [`b² = ${C}² − ${A}² = ${B * B}, so b = ${B}.`],
    verify: (v) => sameValue(`(${casOf(v)})^2+${A}^2`, `${C}^2`),
    params: { A, C },
  };
}

function makeSimilar(rng: Rng, level: Difficulty): Problem {
  const u = rng.pick(UNITS);
  const [p, qq] = [rng.int(1, 5), rng.int(1, 5)];
  if (p === qq || gcd(p, qq) !== 1) return makeSimilar(rng, level);
  const k = `${qq}/${p}`;
  const base = rng.int(1, 6);
  const [ab, bc] = [p * base, p * (base + rng.int(1, 6))];
  const de = q(`${ab}*${k}`);
  const ef = q(`${bc}*${k}`);
  if (level === 'easy') {
    return {
      prompt: `Triangles ABC and DEF are similar, with AB = ${ab} ${u}, BC = ${bc} ${u} and DE = ${de} ${u}. How long is EF, in ${u}?`,
      answer: withUnit(ef, u),
      wrongs: [
        { value: withUnit(q(`${bc}+${de}-${ab}`), u), why: 'adds the difference instead of multiplying by the scale factor' },
        { value: withUnit(q(`${bc}*${ab}/${de}`), u), why: 'uses the scale factor upside down' },
        { value: withUnit(q(`${de}*${bc}`), u), why: 'multiplies the sides' },
      ],
      steps: [`Scale factor DE/AB = ${de}/${ab} = ${q(k)}; EF = BC × ${q(k)} = ${ef}.`],
      verify: (v) => sameValue(`(${casOf(v)})*${ab}`, `${bc}*${de}`),
      params: { ab, bc, de },
    };
  }
  if (level === 'medium') {
    return {
      prompt: `Two similar rectangles have corresponding sides of ${ab} ${u} and ${de} ${u}. What is the scale factor from the first rectangle to the second?`,
      answer: q(k),
      wrongs: [
        { value: q(`1/(${k})`), why: 'divides the wrong way round' },
        { value: q(`${de}-${ab}`), why: 'subtracts the sides' },
        { value: q(`(${k})^2`), why: 'squares the ratio' },
      ],
      steps: [`Scale factor = new ÷ original = ${de} ÷ ${ab} = ${q(k)}.`],
      verify: (v) => sameValue(`(${casOf(v)})*${ab}`, de),
      params: { ab, de },
    };
  }
  const area = rng.int(2, 30) * p * p;
  const big = q(`${area}*(${k})^2`);
  return {
    prompt: `Two similar figures have a scale factor of ${q(k)} from the first to the second. The first has an area of ${area} ${u}^2. What is the area of the second, in ${u}^2?`,
    answer: withUnit(big, `${u}^2`),
    wrongs: [
      { value: withUnit(q(`${area}*(${k})`), `${u}^2`), why: 'multiplies the area by the scale factor instead of its square' },
      { value: withUnit(q(`${area}*(${k})^3`), `${u}^2`), why: 'cubes the scale factor (that is for volume)' },
      { value: withUnit(q(`${area}/(${k})^2`), `${u}^2`), why: 'divides by the square of the scale factor' },
    ],
    steps: [`Areas scale by the square of the scale factor: ${area} × (${q(k)})² = ${big}.`],
    verify: (v) => sameValue(casOf(v), `${area}*(${k})^2`),
    params: { area, k },
  };
}

// ---- statistics and probability ---------------------------------------------------------------

function data(rng: Rng, level: Difficulty, n: number): number[] {
  if (level === 'hard') return Array.from({ length: n }, () => (rng.chance(0.5) ? rng.int(-20, 40) : rng.int(-200, 400) / 10));
  return Array.from({ length: n }, () => rng.int(level === 'easy' ? 1 : 10, level === 'easy' ? 20 : 99));
}

const list = (xs: number[]) => xs.join(', ');
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

function makeMean(rng: Rng, level: Difficulty): Problem {
  if (level === 'hard') {
    const n = rng.int(4, 6);
    const xs = data(rng, 'medium', n - 1);
    const missing = rng.int(10, 99);
    const mean = q(`(${xs.join('+')}+${missing})/${n}`);
    if (mean.includes('/')) return makeMean(rng, level);
    return {
      prompt: `The mean of ${n} numbers is ${mean}. ${n - 1} of them are ${list(xs)}. What is the other number?`,
      answer: String(missing),
      wrongs: [
        { value: q(`${mean}*${n - 1}-(${xs.join('+')})`), why: `multiplies the mean by ${n - 1} instead of ${n}` },
        { value: q(`(${xs.join('+')})/${n - 1}`), why: 'gives the mean of the numbers known' },
        { value: String(missing + Number(mean) > 0 ? missing + 1 : missing - 1), why: 'makes an arithmetic slip' },
      ],
      steps: [`The total is ${mean} × ${n} = ${q(`${mean}*${n}`)}; the known numbers add to ${q(xs.join('+'))}.`, `Missing = ${q(`${mean}*${n}`)} − ${q(xs.join('+'))} = ${missing}.`],
      verify: (v) => sameValue(`(${xs.join('+')}+(${casOf(v)}))/${n}`, mean),
      params: { xs, n },
    };
  }
  const xs = data(rng, level, rng.int(4, 8));
  const mean = `(${xs.join('+')})/${xs.length}`;
  const m = level === 'easy' ? q(mean) : decimal(mean);
  if (level === 'easy' && m.includes('/')) return makeMean(rng, level);
  if (level === 'medium' && !Number.isInteger(num(`${mean}*100`))) return makeMean(rng, level);
  const med = median(xs);
  return {
    prompt: `Find the mean of ${list(xs)}.`,
    answer: m,
    wrongs: [
      { value: decimal(`(${xs.join('+')})/${xs.length - 1}`), why: 'divides by one less than the count' },
      { value: decimal(med), why: 'gives the median' },
      { value: decimal(xs.join('+')), why: 'gives the total without dividing' },
      { value: decimal(`${mean}+1`), why: 'makes an arithmetic slip' },
    ],
    steps: [`Sum: ${q(xs.join('+'))}; count: ${xs.length}.`, `Mean = ${q(xs.join('+'))} ÷ ${xs.length} = ${m}.`],
    verify: (v) => sameValue(casOf(v), mean),
    params: { xs },
  };
}

function median(xs: number[]): string {
  const s = sorted(xs);
  const n = s.length;
  return n % 2 ? String(s[(n - 1) / 2]) : `(${s[n / 2 - 1]}+${s[n / 2]})/2`;
}

function makeMedian(rng: Rng, level: Difficulty): Problem {
  const n = level === 'easy' ? 2 * rng.int(2, 4) + 1 : level === 'medium' ? 2 * rng.int(2, 4) : rng.int(5, 8);
  const xs = data(rng, level, n);
  if (new Set(xs).size < n) return makeMedian(rng, level);
  const med = median(xs);
  const s = sorted(xs);
  const mid = xs[Math.floor((n - 1) / 2)]!;
  return {
    prompt: `Find the median of ${list(xs)}.`,
    answer: decimal(med),
    wrongs: [
      { value: decimal(String(mid)), why: 'takes the middle value without sorting the data' },
      { value: decimal(`(${xs.join('+')})/${n}`), why: 'gives the mean' },
      { value: decimal(String(s[Math.floor(n / 2)]! === num(med) ? s[Math.floor(n / 2) + 1] ?? s[0]! : s[Math.floor(n / 2)]!)), why: n % 2 ? 'counts one place too far' : 'takes one of the two middle values instead of their mean' },
      { value: decimal(`${s[n - 1]}-${s[0]}`), why: 'gives the range' },
    ],
    steps: [`Sorted: ${list(s)}.`, n % 2 ? `The middle (${(n + 1) / 2}th) value is ${decimal(med)}.` : `The two middle values are ${s[n / 2 - 1]} and ${s[n / 2]}; their mean is ${decimal(med)}.`],
    verify: (v) => sameValue(casOf(v), med),
    params: { xs },
  };
}

function makeMode(rng: Rng, level: Difficulty): Problem {
  const n = level === 'easy' ? rng.int(5, 7) : rng.int(8, 11);
  const pool = data(rng, level, n);
  const mode = pool[0]!;
  // The mode appears three times, every other value at most twice.
  const xs = rng.shuffle([mode, mode, mode, ...pool.slice(1).filter((x) => x !== mode)]);
  const counts = new Map<number, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  if ([...counts.entries()].some(([x, c]) => x !== mode && c >= 3)) return makeMode(rng, level);
  const other = [...counts.entries()].filter(([x]) => x !== mode).sort((a, b) => b[1] - a[1])[0]![0];
  const s = sorted(xs);
  return {
    prompt: `Find the mode of ${list(xs)}.`,
    answer: decimal(String(mode)),
    wrongs: [
      { value: decimal(String(other)), why: 'picks a value that does not appear most often' },
      { value: decimal(median(xs)), why: 'gives the median' },
      { value: String(counts.get(mode)), why: 'gives how many times the mode appears, not the value' },
      { value: decimal(`${s[s.length - 1]}-${s[0]}`), why: 'gives the range' },
    ],
    steps: [`${decimal(String(mode))} appears ${counts.get(mode)} times, more than any other value.`],
    verify: (v) => {
      const val = num(casOf(v));
      const best = Math.max(...counts.values());
      return xs.some((x) => Math.abs(x - val) < 1e-9 && counts.get(x) === best);
    },
    params: { xs },
  };
}

function makeRange(rng: Rng, level: Difficulty): Problem {
  const xs = data(rng, level, level === 'easy' ? rng.int(5, 7) : rng.int(7, 10));
  const s = sorted(xs);
  const r = `${s[s.length - 1]}-(${s[0]})`;
  if (num(r) === 0) return makeRange(rng, level);
  return {
    prompt: `Find the range of ${list(xs)}.`,
    answer: decimal(r),
    wrongs: [
      { value: decimal(`${xs[xs.length - 1]}-(${xs[0]})`), why: 'subtracts the first value from the last without sorting' },
      { value: decimal(`${s[s.length - 1]}+(${s[0]})`), why: 'adds the largest and smallest values' },
      { value: decimal(String(s[s.length - 1])), why: 'gives the largest value' },
      { value: decimal(`${s[s.length - 1]}-(${s[1]})`), why: 'misses the smallest value' },
    ],
    steps: [`Largest ${s[s.length - 1]}, smallest ${s[0]}: range = ${s[s.length - 1]} − (${s[0]}) = ${decimal(r)}.`],
    verify: (v) => sameValue(casOf(v), r),
    params: { xs },
  };
}

function makeProbability(rng: Rng, level: Difficulty): Problem {
  const colours = rng.shuffle(['red', 'blue', 'green', 'yellow'] as const);
  const counts = [rng.int(1, 9), rng.int(1, 9), rng.int(1, 9)];
  const total = counts.reduce((a, b) => a + b, 0);
  const bag = counts.map((c, i) => `${c} ${colours[i]}`).join(', ');
  if (level === 'easy') {
    const i = rng.int(0, 2);
    const p = `${counts[i]}/${total}`;
    return {
      prompt: `A bag holds ${bag} marbles. One marble is drawn at random. What is the probability that it is ${colours[i]}? Give a fraction in lowest terms.`,
      answer: q(p),
      wrongs: [
        { value: q(`${counts[i]}/(${total}-${counts[i]})`), why: 'divides by the other marbles instead of all of them' },
        { value: q(`(${total}-${counts[i]})/${total}`), why: 'gives the probability of not drawing it' },
        { value: q(`1/${total}`), why: 'counts one favourable outcome' },
        { value: q(`1/3`), why: 'treats the three colours as equally likely' },
      ],
      steps: [`P = favourable ÷ total = ${counts[i]} ÷ ${total} = ${q(p)}.`],
      verify: (v) => !/%/.test(v) && sameValue(casOf(v), p),
      params: { counts, i },
    };
  }
  if (level === 'medium') {
    const i = rng.int(0, 2);
    const either = rng.chance(0.5);
    const j = (i + 1) % 3;
    const p = either ? `(${counts[i]}+${counts[j]})/${total}` : `(${total}-${counts[i]})/${total}`;
    return {
      prompt: either
        ? `A bag holds ${bag} marbles. One is drawn at random. What is the probability that it is ${colours[i]} or ${colours[j]}? Give a fraction in lowest terms.`
        : `A bag holds ${bag} marbles. One is drawn at random. What is the probability that it is not ${colours[i]}? Give a fraction in lowest terms.`,
      answer: q(p),
      wrongs: [
        { value: q(either ? `${counts[i]}*${counts[j]}/${total}^2` : `${counts[i]}/${total}`), why: either ? 'multiplies the probabilities instead of adding them' : 'gives the probability of the colour itself' },
        { value: q(either ? `${counts[i]}/${total}` : `1/${total}`), why: either ? 'counts only one colour' : 'counts one outcome' },
        { value: q(`${p}+1/${total}`), why: 'miscounts the favourable outcomes by one' },
      ],
      steps: [either ? `Favourable: ${counts[i]} + ${counts[j]}; P = ${q(p)}.` : `P(not ${colours[i]}) = 1 − ${counts[i]}/${total} = ${q(p)}.`],
      verify: (v) => !/%/.test(v) && sameValue(casOf(v), p),
      params: { counts, i },
    };
  }
  const faces = rng.int(1, 6);
  const kind = rng.int(0, 1);
  const coin = `1/2*${faces}/6`;
  const die = `(${faces}/6)*(${counts[0]}/${total})`;
  const p = kind === 0 ? coin : die;
  const prompt =
    kind === 0
      ? `A fair coin is tossed and a fair six-sided die is rolled. What is the probability of heads and a number less than or equal to ${faces}? Give a fraction in lowest terms.`
      : `A fair six-sided die is rolled and a marble is drawn from a bag of ${bag} marbles. What is the probability of rolling at most ${faces} and drawing ${colours[0]}? Give a fraction in lowest terms.`;
  return {
    prompt,
    answer: q(p),
    wrongs: [
      { value: q(kind === 0 ? `1/2+${faces}/6` : `${faces}/6+${counts[0]}/${total}`), why: 'adds the probabilities of independent events instead of multiplying them' },
      { value: q(kind === 0 ? `${faces}/6` : `${counts[0]}/${total}`), why: 'ignores one of the events' },
      { value: q(`(${p})*2`), why: 'doubles the product' },
    ],
    steps: ['The events are independent: multiply their probabilities.', `P = ${q(p)}.`],
    verify: (v) => !/%/.test(v) && sameValue(casOf(v), p),
    params: { kind, faces, counts },
  };
}

// ---- unit conversions -------------------------------------------------------------------------

const METRIC: [string, string, number][] = [
  ['km', 'm', 1000], ['m', 'cm', 100], ['cm', 'mm', 10], ['m', 'mm', 1000], ['kg', 'g', 1000], ['g', 'mg', 1000], ['L', 'mL', 1000],
];
const METRIC_TWO: [string, string, number][] = [['km', 'cm', 100000], ['kg', 'mg', 1000000], ['km', 'mm', 1000000]];
const CUSTOMARY: [string, string, number][] = [
  ['ft', 'in', 12], ['yd', 'ft', 3], ['mi', 'ft', 5280], ['lb', 'oz', 16], ['gal', 'qt', 4], ['qt', 'pt', 2], ['pt', 'cups', 2], ['yd', 'in', 36],
];
const CUSTOMARY_TWO: [string, string, number][] = [['gal', 'cups', 16], ['gal', 'pt', 8], ['mi', 'yd', 1760], ['yd', 'in', 36]];

function conversion(rng: Rng, level: Difficulty, one: [string, string, number][], two: [string, string, number][], metric: boolean): Problem {
  let [big, small, f] = rng.pick(level === 'hard' ? two : one);
  let square = false;
  if (level === 'hard' && metric && rng.chance(0.4)) {
    [big, small, f] = rng.pick([['m', 'cm', 100], ['cm', 'mm', 10], ['km', 'm', 1000]] as [string, string, number][]);
    square = true;
  }
  const down = rng.chance(0.5);
  const F = square ? f * f : f;
  let amount: string;
  if (level === 'easy') amount = down ? String(rng.int(2, 40)) : String(F * rng.int(2, 40));
  else if (metric) amount = down ? decimal(`${rng.int(1, 999)}/100`) : String(rng.int(1, 99) * (F / 10));
  else amount = down ? q(`${rng.int(1, 15)}/${rng.pick([2, 4])}`) : String(F * rng.int(1, 30) + (F > 2 ? F / 2 : 0) * 0);
  const [from, to] = down ? [big, small] : [small, big];
  const value = down ? `${casOf(amount)}*${F}` : `${casOf(amount)}/${F}`;
  const unitFrom = square ? `${from}^2` : from;
  const unitTo = square ? `${to}^2` : to;
  const show = (e: string) => (metric ? decimal(e) : q(e));
  const answer = `${show(value)} ${unitTo}`;
  if (show(value).length > 9 || /\.\d{5}/.test(show(value))) return conversion(rng, level, one, two, metric);
  return {
    prompt: `Convert ${amount} ${unitFrom} to ${unitTo}.`,
    answer,
    wrongs: [
      { value: `${show(down ? `${casOf(amount)}/${F}` : `${casOf(amount)}*${F}`)} ${unitTo}`, why: down ? 'divides instead of multiplying (a larger unit into a smaller one gives more of them)' : 'multiplies instead of dividing' },
      ...(square ? [{ value: `${show(down ? `${casOf(amount)}*${f}` : `${casOf(amount)}/${f}`)} ${unitTo}`, why: `uses ${f} instead of ${f}² for square units` }] : []),
      { value: `${show(down ? `${casOf(amount)}*${F}*10` : `${casOf(amount)}/${F}/10`)} ${unitTo}`, why: 'uses a factor ten times too large' },
      { value: `${show(down ? `${casOf(amount)}*${F}/10` : `${casOf(amount)}/${F}*10`)} ${unitTo}`, why: 'uses a factor ten times too small' },
    ],
    steps: [`1 ${square ? `${big}^2` : big} = ${F} ${square ? `${small}^2` : small}.`, `${down ? 'Multiply' : 'Divide'} by ${F}: ${amount} ${unitFrom} = ${answer}.`],
    verify: (v) => sameValue(casOf(v), value),
    params: { from: unitFrom, to: unitTo, factor: F },
  };
}

export const MEASURE_GENERATORS = [
  generator('perimeter', makePerimeter),
  generator('area', makeArea),
  generator('volume', makeVolume),
  generator('circles', makeCircle),
  generator('triangle-angles', makeTriangleAngles),
  generator('polygon-angles', makePolygonAngles),
  generator('pythagorean-theorem', makePythagoras),
  generator('similar-figures', makeSimilar),
  generator('mean', makeMean),
  generator('median', makeMedian),
  generator('mode', makeMode),
  generator('range', makeRange),
  generator('probability', makeProbability),
  generator('metric-conversion', (r, l) => conversion(r, l, METRIC, METRIC_TWO, true)),
  generator('customary-conversion', (r, l) => conversion(r, l, CUSTOMARY, CUSTOMARY_TWO, false)),
];
