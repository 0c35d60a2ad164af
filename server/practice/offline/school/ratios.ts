/** Ratios, rates, unit rates, proportions, and percent (of, change, interest, conversions). */
import type { Difficulty } from '../../types.ts';
import { at, decimal, gcd, generator, num, q, qw, sameValue, type Problem, type Rng } from './kit.ts';

const ratioValue = (r: string) => r.split(':').map((p) => Number(p.trim()));
/** Two ratios name the same comparison (in order) when their parts are proportional. */
function sameRatio(a: string, b: string): boolean {
  const [x, y] = [ratioValue(a), ratioValue(b)];
  if (x.length !== y.length || x.some((v) => !Number.isFinite(v))) return false;
  return x.every((v, i) => sameValue(`${v}*${y[0]}`, `${y[i]}*${x[0]}`));
}
const simplest = (r: string) => gcd(ratioValue(r).reduce((g, v) => gcd(g, v)), 0) === 1;

function makeRatio(rng: Rng, level: Difficulty): Problem {
  const names = rng.pick([['boys', 'girls'], ['red marbles', 'blue marbles'], ['cats', 'dogs'], ['apples', 'oranges']] as const);
  if (level === 'easy') {
    const [a, b] = [rng.int(1, 9), rng.int(1, 9)];
    const k = rng.int(2, 9);
    if (gcd(a, b) !== 1 || a === b) return makeRatio(rng, level);
    const shown = `${a * k}:${b * k}`;
    return {
      prompt: `Write the ratio ${shown} in simplest form.`,
      answer: `${a}:${b}`,
      wrongs: [
        { value: `${b}:${a}`, why: 'reverses the order of the ratio' },
        { value: `${a}:${a + b}`, why: 'compares a part with the whole' },
        { value: `${a * k - b * k > 0 ? a * k - b * k : b * k - a * k}:${b * k}`, why: 'subtracts instead of dividing' },
        { value: `${a + 1}:${b + 1}`, why: 'makes a slip in dividing' },
      ],
      steps: [`Divide both parts by their greatest common factor ${k}.`, `${shown} = ${a}:${b}.`],
      verify: (v) => /^\s*\d+\s*:\s*\d+\s*$/.test(v) && sameRatio(v, shown) && simplest(v),
      params: { ratio: shown },
    };
  }
  const parts = level === 'medium' ? [rng.int(1, 7), rng.int(1, 7)] : [rng.int(1, 6), rng.int(1, 6), rng.int(1, 6)];
  if (new Set(parts).size !== parts.length) return makeRatio(rng, level);
  const sum = parts.reduce((s, p) => s + p, 0);
  const total = sum * rng.int(3, 25);
  const which = rng.int(0, parts.length - 1);
  const label = parts.length === 2 ? names[which]! : ['first', 'second', 'third'][which]!;
  const share = `${total}*${parts[which]}/${sum}`;
  const answer = q(share);
  return {
    prompt:
      parts.length === 2
        ? `There are ${total} ${names[0]} and ${names[1]} in the ratio ${parts.join(':')}. How many ${label} are there?`
        : `$${total} is shared in the ratio ${parts.join(':')}. How many dollars is the ${label} share?`,
    answer,
    wrongs: [
      { value: q(`${total}/${parts[which]}`), why: 'divides the total by the part instead of by the sum of the parts' },
      { value: q(`${total}*${parts[which]}/${sum}+${total}/${sum}`), why: 'counts one part too many' },
      { value: q(`${total}-${share}`), why: 'gives the rest instead of the share asked' },
      { value: q(`${total}*${parts[which]}/${sum - parts[which]!}`), why: 'divides by the other parts only' },
    ],
    steps: [`The ratio has ${parts.join(' + ')} = ${sum} parts; one part is ${total} ÷ ${sum} = ${q(`${total}/${sum}`)}.`, `${parts[which]} parts: ${answer}.`],
    verify: (v) => sameValue(v, share),
    params: { parts, total, which },
  };
}
const ratios = generator('ratios', makeRatio);

const rates = generator('rates', (rng, level): Problem => {
  const speed = level === 'easy' ? rng.int(2, 12) * 5 : level === 'medium' ? rng.int(3, 24) * 5 : rng.int(2, 8) * 15;
  const time = level === 'easy' ? rng.int(2, 6) : level === 'medium' ? rng.int(2, 12) / 2 : rng.pick([15, 20, 30, 40, 45, 90, 75, 150]);
  const hours = level === 'hard' ? `${time}/60` : String(time);
  const dist = q(`${speed}*${hours}`);
  const kind = level === 'easy' ? 0 : rng.int(0, 2);
  const unit = rng.pick(['km', 'miles'] as const);
  const per = unit === 'km' ? 'km/h' : 'miles per hour';
  const timeText = level === 'hard' ? `${time} minutes` : `${time} hours`;
  if (kind === 0) {
    return {
      prompt: `A car travels at ${speed} ${per} for ${timeText}. How far does it go, in ${unit}?`,
      answer: decimal(dist),
      wrongs: [
        { value: decimal(`${speed}/(${hours})`), why: 'divides speed by time instead of multiplying' },
        { value: decimal(`${speed}*${time}`), why: level === 'hard' ? 'does not convert the minutes to hours' : 'multiplies by one hour too many', },
        { value: decimal(`${speed}+${hours}`), why: 'adds speed and time' },
        { value: decimal(`${dist}/2`), why: 'halves the distance' },
      ],
      steps: [`distance = speed × time = ${speed} × ${level === 'hard' ? `${time}/60 h` : `${time} h`}.`],
      verify: (v) => sameValue(v, dist),
      params: { kind, speed, hours },
    };
  }
  if (kind === 1) {
    return {
      prompt: `A train covers ${decimal(dist)} ${unit} in ${timeText}. What is its average speed in ${per}?`,
      answer: String(speed),
      wrongs: [
        { value: decimal(`${dist}*${hours}`), why: 'multiplies distance by time' },
        { value: decimal(`(${hours})/${dist}`), why: 'divides time by distance' },
        { value: decimal(`${dist}/${time}`), why: level === 'hard' ? 'divides by the minutes, not hours' : 'divides by one hour too many' },
        { value: String(speed + 5), why: 'makes an arithmetic slip' },
      ],
      steps: [`speed = distance ÷ time = ${decimal(dist)} ÷ ${level === 'hard' ? `(${time}/60)` : time}.`],
      verify: (v) => sameValue(`(${v})*(${hours})`, dist),
      params: { kind, speed, hours },
    };
  }
  const out = level === 'hard' ? 'minutes' : 'hours';
  return {
    prompt: `How long does it take to travel ${decimal(dist)} ${unit} at ${speed} ${per}? Give the time in ${out}.`,
    answer: decimal(level === 'hard' ? String(time) : hours),
    wrongs: [
      { value: decimal(`${dist}*${speed}`), why: 'multiplies distance by speed' },
      { value: decimal(`${speed}/${dist}`), why: 'divides speed by distance' },
      { value: decimal(level === 'hard' ? `${time}/60` : `${time}*60`), why: level === 'hard' ? 'gives hours, not minutes' : 'gives minutes, not hours' },
      { value: decimal(`${level === 'hard' ? time : hours}+1`), why: 'makes an off-by-one slip' },
    ],
    steps: [`time = distance ÷ speed = ${decimal(dist)} ÷ ${speed} = ${decimal(hours)} h${level === 'hard' ? ` = ${time} minutes` : ''}.`],
    verify: (v) => sameValue(level === 'hard' ? `(${v})/60*${speed}` : `(${v})*${speed}`, dist),
    params: { kind, speed, hours },
  };
});

const unitRates = generator('unit-rates', (rng, level): Problem => {
  const items = rng.pick(['pens', 'notebooks', 'apples', 'batteries', 'tickets'] as const);
  const n = rng.int(2, level === 'easy' ? 10 : 16);
  const unitPrice = level === 'easy' ? rng.int(2, 15) : rng.int(11, 400) / 20;
  const cost = decimal(`${n}*${unitPrice}`);
  if (level !== 'hard') {
    return {
      prompt: level === 'easy' ? `A worker makes ${cost} ${items} in ${n} hours. How many ${items} per hour is that?` : `${n} ${items} cost $${cost}. What is the price of one, in dollars?`,
      answer: decimal(String(unitPrice)),
      wrongs: [
        { value: decimal(`${n}/${cost}`), why: 'divides the wrong way round' },
        { value: decimal(`${n}*${cost}`), why: 'multiplies instead of dividing' },
        { value: decimal(`${cost}/(${n}+1)`), why: 'divides by one more than the count' },
        { value: decimal(`${cost}-${n}`), why: 'subtracts instead of dividing' },
      ],
      steps: [`Unit rate = total ÷ number of units = ${cost} ÷ ${n} = ${decimal(String(unitPrice))}.`],
      verify: (v) => sameValue(`(${v})*${n}`, cost),
      params: { n, cost },
    };
  }
  const m = n + rng.int(1, 8);
  let other = rng.int(11, 400) / 20;
  if (Math.abs(other - unitPrice) < 0.05) other += 0.25;
  const cost2 = decimal(`${m}*${other}`);
  const cheaper = unitPrice < other ? unitPrice : other;
  return {
    prompt: `Store A sells ${n} ${items} for $${cost}; store B sells ${m} for $${cost2}. What is the lower price per item, in dollars?`,
    answer: decimal(String(cheaper)),
    wrongs: [
      { value: decimal(String(unitPrice < other ? other : unitPrice)), why: 'picks the higher unit price' },
      { value: decimal(`${cost}/${m}`), why: "divides one store's price by the other store's count" },
      { value: decimal(`(${cost}+${cost2})/(${n}+${m})`), why: 'averages the two offers' },
      { value: decimal(`${cost2}/${n}`), why: "divides one store's price by the other store's count" },
      { value: decimal(`abs(${cost2}-${cost})`), why: 'compares the totals instead of the unit prices' },
      { value: decimal(`${cheaper}*10`), why: 'puts the decimal point in the wrong place' },
    ],
    steps: [`A: ${cost} ÷ ${n} = ${decimal(String(unitPrice))}; B: ${cost2} ÷ ${m} = ${decimal(String(other))}.`, `The lower unit price is ${decimal(String(cheaper))}.`],
    verify: (v) => sameValue(v, `min(${cost}/${n},${cost2}/${m})`) || (sameValue(v, `${cost}/${n}`) && num(`${cost}/${n}`) <= num(`${cost2}/${m}`)) || (sameValue(v, `${cost2}/${m}`) && num(`${cost2}/${m}`) <= num(`${cost}/${n}`)),
    params: { n, m, cost, cost2 },
  };
});

const proportions = generator('proportions', (rng, level): Problem => {
  const a = rng.int(2, 12);
  const k = level === 'easy' ? rng.int(2, 6) : rng.int(2, 9);
  const x0 = rng.int(1, 15);
  let lhs: string, rhs: string, eqText: string;
  if (level === 'easy') {
    [lhs, rhs] = [`x/${a}`, `${x0 * k}/${a * k}`];
    eqText = `x/${a} = ${x0 * k}/${a * k}`;
  } else if (level === 'medium') {
    [lhs, rhs] = [`${a}/x`, `${a * k}/${x0 * k}`];
    eqText = `${a}/x = ${a * k}/${x0 * k}`;
  } else {
    const c = rng.nonzero(-5, 5);
    const b = rng.int(2, 9);
    const d = rng.int(2, 9);
    const val = rng.int(1, 12);
    // (x + c)/b = val/d, fractional solutions allowed
    [lhs, rhs] = [`(x+(${c}))/${b}`, `${val}/${d}`];
    eqText = `(x ${c < 0 ? '−' : '+'} ${Math.abs(c)})/${b} = ${val}/${d}`;
  }
  const sol = level === 'hard' ? q(`${rhs}*${lhs.match(/\/(\d+)$/)![1]}-(${lhs.match(/\((-?\d+)\)/)![1]})`) : String(x0);
  const answer = `x = ${sol}`;
  const check = (v: string) => {
    try {
      return at(`(${lhs})-(${rhs})`, { x: v.replace(/^\s*x\s*=\s*/, '') }) === '0';
    } catch {
      return false;
    }
  };
  return {
    prompt: `Solve the proportion ${eqText}.`,
    answer,
    wrongs: [
      { value: `x = ${q(`(${sol})*2`)}`, why: 'doubles when cross-multiplying' },
      { value: `x = ${qw(`1/(${sol})`)}`, why: 'inverts the unknown' },
      { value: `x = ${q(`(${sol})+1`)}`, why: 'makes an off-by-one slip' },
      { value: `x = ${q(`-(${sol})`)}`, why: 'gets the sign wrong' },
    ],
    steps: ['Cross-multiply: the product of the means equals the product of the extremes.', `Solve the resulting equation: ${answer}.`],
    verify: check,
    params: { equation: eqText, lhs, rhs },
  };
});

const percentOf = generator('percent-of', (rng, level): Problem => {
  const p = level === 'easy' ? rng.pick([10, 20, 25, 50, 75]) : level === 'medium' ? 5 * rng.int(1, 19) : rng.pick([5, 12.5, 15, 30, 35, 40, 60, 62.5, 80]);
  const N = level === 'easy' ? 20 * rng.int(1, 15) : 8 * rng.int(2, 60);
  const part = q(`${p}*${N}/100`);
  const kind = level === 'hard' ? rng.int(1, 2) : 0;
  if (kind === 0)
    return {
      prompt: `What is ${p}% of ${N}?`,
      answer: decimal(part),
      wrongs: [
        { value: decimal(`${p}*${N}`), why: 'forgets to divide by 100' },
        { value: decimal(`${N}-${part}`), why: 'gives what is left after taking the percent' },
        { value: decimal(`${N}/${p}`), why: 'divides the number by the percent' },
        { value: decimal(`${part}*10`), why: 'moves the decimal point one place too far' },
      ],
      steps: [`${p}% of ${N} = ${p}/100 × ${N} = ${decimal(part)}.`],
      verify: (v) => sameValue(v, `${p}/100*${N}`),
      params: { kind, p, N },
    };
  if (kind === 1)
    return {
      prompt: `${decimal(part)} is ${p}% of what number?`,
      answer: String(N),
      wrongs: [
        { value: decimal(`${part}*${p}/100`), why: 'takes the percent of the part instead of dividing by it' },
        { value: decimal(`${part}*100/${p}*10`), why: 'moves the decimal point one place too far' },
        { value: decimal(`${part}*${p}`), why: 'multiplies by the percent' },
        { value: decimal(`${part}+${p}`), why: 'adds the percent' },
      ],
      steps: [`whole = part ÷ (percent/100) = ${decimal(part)} ÷ ${p / 100} = ${N}.`],
      verify: (v) => sameValue(`(${v})*${p}/100`, part),
      params: { kind, p, N },
    };
  return {
    prompt: `${decimal(part)} is what percent of ${N}?`,
    answer: `${p}%`,
    wrongs: [
      { value: `${decimal(`${N}/${part}*100`)}%`, why: 'divides the whole by the part' },
      { value: `${decimal(`${part}/${N}`)}%`, why: 'forgets to multiply by 100' },
      { value: `${decimal(`100-${p}`)}%`, why: 'gives the remaining percent' },
    ],
    steps: [`percent = part ÷ whole × 100 = ${decimal(part)} ÷ ${N} × 100 = ${p}%.`],
    verify: (v) => /%\s*$/.test(v) && sameValue(v.replace('%', ''), `${part}/${N}*100`),
    params: { kind, p, N },
  };
});

const percentChange = generator('percent-change', (rng, level): Problem => {
  const N = 20 * rng.int(2, 40);
  const p = rng.pick([5, 10, 15, 20, 25, 30, 40, 50, 60, 75]);
  const up = rng.chance(0.5);
  const thing = rng.pick(['A jacket costs $N.', 'A town has N people.', 'A school has N students.']).replace('N', String(N));
  if (level === 'easy') {
    const result = `${N}*(1${up ? '+' : '-'}${p}/100)`;
    return {
      prompt: `${thing} The number ${up ? 'increases' : 'decreases'} by ${p}%. What is the new value?`,
      answer: decimal(result),
      wrongs: [
        { value: decimal(`${N}*${p}/100`), why: 'gives only the change, not the new value' },
        { value: decimal(`${N}${up ? '+' : '-'}${p}`), why: 'adds the percent as a number' },
        { value: decimal(`${N}*(1${up ? '-' : '+'}${p}/100)`), why: `${up ? 'decreases' : 'increases'} instead` },
      ],
      steps: [`new = old × (1 ${up ? '+' : '−'} ${p}/100) = ${N} × ${decimal(`1${up ? '+' : '-'}${p}/100`)} = ${decimal(result)}.`],
      verify: (v) => sameValue(v, result),
      params: { N, p, up },
    };
  }
  if (level === 'medium') {
    const B = q(`${N}*(1${up ? '+' : '-'}${p}/100)`);
    const change = `(${B}-${N})/${N}*100`;
    return {
      prompt: `A value changes from ${N} to ${decimal(B)}. What is the percent change? Use a minus sign for a decrease.`,
      answer: `${decimal(change)}%`,
      wrongs: [
        { value: `${decimal(`(${B}-${N})/${B}*100`)}%`, why: 'divides by the new value instead of the original' },
        { value: `${decimal(`-(${change})`)}%`, why: 'gets the direction of the change wrong' },
        { value: `${decimal(`${B}-${N}`)}%`, why: 'gives the difference, not a percent' },
      ],
      steps: [`percent change = (new − old) ÷ old × 100 = (${decimal(B)} − ${N}) ÷ ${N} × 100.`],
      verify: (v) => /%\s*$/.test(v) && sameValue(v.replace('%', ''), change),
      params: { N, p, up },
    };
  }
  const p2 = rng.pick([10, 20, 25, 50]);
  const result = `${N}*(1+${p}/100)*(1-${p2}/100)`;
  return {
    prompt: `A price of $${N} rises by ${p}% and the new price then falls by ${p2}%. What is the final price in dollars?`,
    answer: decimal(result),
    wrongs: [
      { value: decimal(`${N}*(1+(${p}-${p2})/100)`), why: 'adds the two percents instead of applying them one after the other' },
      { value: decimal(`${N}*(1+${p}/100)`), why: 'applies only the rise' },
      { value: decimal(`${N}*(1-${p}/100)*(1+${p2}/100)`), why: 'applies the changes the wrong way round' },
    ],
    steps: [`After the rise: ${N} × ${decimal(`1+${p}/100`)} = ${decimal(`${N}*(1+${p}/100)`)}.`, `After the fall: × ${decimal(`1-${p2}/100`)} = ${decimal(result)}.`],
    verify: (v) => sameValue(v, result),
    params: { N, p, p2 },
  };
});

const interest = generator('simple-interest', (rng, level): Problem => {
  const P = 100 * rng.int(2, 60);
  const r = level === 'hard' ? rng.pick([2, 3, 4, 5, 6]) : rng.pick([2, 2.5, 3, 4, 5, 6, 8]);
  const t = rng.int(2, level === 'hard' ? 4 : 8);
  if (level === 'hard') {
    const A = `${P}*(1+${r}/100)^${t}`;
    const round = (e: string) => num(`round((${e})*100)/100`).toFixed(2);
    return {
      prompt: `$${P} is invested at ${r}% interest compounded yearly. What is the balance after ${t} years, in dollars? Round to the nearest cent.`,
      answer: round(A),
      wrongs: [
        { value: round(`${P}*(1+${r}*${t}/100)`), why: 'uses simple interest' },
        { value: round(`${P}*(1+${r}/100)^${t}-${P}`), why: 'gives only the interest earned' },
        { value: round(`${P}*(1+${r}/100)^${t + 1}`), why: 'compounds one year too many' },
        { value: round(`${P}*(1+${r})^${t}`), why: 'forgets to divide the rate by 100' },
      ],
      steps: [`A = P(1 + r)^t = ${P} × ${decimal(`1+${r}/100`)}^${t} ≈ ${round(A)}.`],
      verify: (v) => Math.abs(num(casOfMoney(v)) - num(A)) <= 0.005 + 1e-9,
      params: { P, r, t },
    };
  }
  const I = `${P}*${r}/100*${t}`;
  const total = level === 'medium';
  const value = total ? `${P}+${I}` : I;
  return {
    prompt: `$${P} is invested at ${r}% simple interest per year for ${t} years. ${total ? 'What is the total amount at the end' : 'How much interest is earned'}, in dollars?`,
    answer: decimal(value),
    wrongs: [
      { value: decimal(`${P}*${r}*${t}`), why: 'forgets to divide the rate by 100' },
      { value: decimal(total ? I : `${P}+${I}`), why: total ? 'gives only the interest' : 'gives the total amount, not the interest' },
      { value: decimal(`${P}*${r}/100${total ? `+${P}` : ''}`), why: 'counts only one year' },
      { value: decimal(`${P}*(1+${r}/100)^${t}${total ? '' : `-${P}`}`), why: 'compounds the interest' },
    ],
    steps: [`I = P × r × t = ${P} × ${r / 100} × ${t} = ${decimal(I)}.`, ...(total ? [`Total = ${P} + ${decimal(I)} = ${decimal(value)}.`] : [])],
    verify: (v) => sameValue(v, value),
    params: { P, r, t },
  };
});
const casOfMoney = (v: string) => v.replace(/[$,\s]/g, '');

function makeConversion(rng: Rng, level: Difficulty): Problem {
  if (level === 'easy') {
    const d = rng.int(1, 999) / rng.pick([100, 1000]);
    const ds = decimal(String(d));
    return {
      prompt: `Write ${ds} as a percent.`,
      answer: `${decimal(`${ds}*100`)}%`,
      wrongs: [
        { value: `${decimal(`${ds}*10`)}%`, why: 'moves the decimal point only one place' },
        { value: `${decimal(`${ds}/100`)}%`, why: 'divides by 100 instead of multiplying' },
        { value: `${decimal(`${ds}*1000`)}%`, why: 'moves the decimal point three places' },
      ],
      steps: [`Multiply by 100: ${ds} = ${decimal(`${ds}*100`)}%.`],
      verify: (v) => /%\s*$/.test(v) && sameValue(v.replace('%', ''), `${ds}*100`),
      params: { value: ds },
    };
  }
  if (level === 'medium') {
    const den = rng.pick([2, 4, 5, 8, 10, 20, 25, 40, 50]);
    const n = rng.int(1, den - 1);
    if (gcd(n, den) !== 1) return makeConversion(rng, level);
    return {
      prompt: `Write ${n}/${den} as a percent.`,
      answer: `${decimal(`${n}/${den}*100`)}%`,
      wrongs: [
        { value: `${decimal(`${n}/${den}`)}%`, why: 'forgets to multiply by 100' },
        { value: `${decimal(`${den}/${n}*100`)}%`, why: 'divides the wrong way round' },
        { value: `${n}${den}%`, why: 'writes the digits side by side' },
        { value: `${decimal(`${n}*100/${den}+1`)}%`, why: 'makes an arithmetic slip' },
      ],
      steps: [`${n}/${den} = ${n} ÷ ${den} = ${decimal(`${n}/${den}`)} = ${decimal(`${n}/${den}*100`)}%.`],
      verify: (v) => /%\s*$/.test(v) && sameValue(v.replace('%', ''), `${n}/${den}*100`),
      params: { n, den },
    };
  }
  let p = rng.chance(0.2) ? rng.int(1, 40) + 0.5 : rng.int(1, 160);
  if (p % 100 === 0) p += 1;
  const f = q(`${p}/100`);
  return {
    prompt: `Write ${p}% as a fraction in lowest terms.`,
    answer: f,
    wrongs: [
      { value: q(`${p}/10`), why: 'divides by 10 instead of 100' },
      { value: q(`${p}/1000`), why: 'divides by 1000 instead of 100' },
      { value: q(`100/${p}`), why: 'turns the fraction upside down' },
      { value: q(`${p}/100+1/100`), why: 'makes a slip reducing the fraction' },
    ],
    steps: [`${p}% = ${p}/100 = ${f} in lowest terms.`],
    verify: (v) => !v.includes('%') && sameValue(v, `${p}/100`),
    params: { p },
  };
}
const percentConversion = generator('percent-conversion', makeConversion);

export const RATIO_GENERATORS = [ratios, rates, unitRates, proportions, percentOf, percentChange, interest, percentConversion];
