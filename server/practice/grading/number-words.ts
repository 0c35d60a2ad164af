/**
 * Numbers written in words ("eight", "twenty-one", "one hundred and five", "third") as numerals.
 * Two numbers of 10–99 side by side with no "hundred" or "thousand" between them are a year, as
 * years are said ("nineteen eighty-nine" is 1989, "twenty twenty" 2020, "nineteen oh five" 1905);
 * other numbers side by side ("one two", "twenty thirty-one") name no number.
 */

const UNITS = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };
const ORDINALS: Record<string, string> = { first: 'one', second: 'two', third: 'three', fifth: 'five', eighth: 'eight', ninth: 'nine', twelfth: 'twelve' };
/** "Oh" for a zero, said in a year ("nineteen oh five"). */
const OH = new Set(['oh', 'o']);

function wordValue(w: string): number | null {
  const u = UNITS.indexOf(w);
  if (u >= 0) return u;
  const t = TENS.indexOf(w);
  return t >= 2 ? t * 10 : null;
}

/** Number words of 10–99 at the start of `v`: one word ("nineteen", "eighty") or tens and a digit ("eighty nine"). */
function twoDigits(v: number[]): { value: number; used: number } | null {
  if (v.length >= 2 && v[0] >= 20 && v[0] % 10 === 0 && v[1] > 0 && v[1] < 10) return { value: v[0] + v[1], used: 2 };
  return v.length >= 1 && v[0] >= 10 && v[0] <= 99 ? { value: v[0], used: 1 } : null;
}

/**
 * The words read as a year: two numbers of 10–99 ("nineteen eighty-nine", "twenty ten"), or one
 * and "oh" with a digit ("nineteen oh five"). Null when the words are not said so.
 */
function year(words: string[]): number | null {
  const oh = words.findIndex((w) => OH.has(w));
  const v = words.filter((_, i) => i !== oh).map((w) => wordValue(w));
  if (v.some((x) => x === null)) return null;
  const hi = twoDigits(v as number[]);
  if (!hi) return null;
  const rest = (v as number[]).slice(hi.used);
  if (oh >= 0) return oh === hi.used && rest.length === 1 && rest[0] > 0 && rest[0] < 10 ? hi.value * 100 + rest[0] : null;
  const lo = twoDigits(rest);
  return lo && lo.used === rest.length ? hi.value * 100 + lo.value : null;
}

/** The number a phrase of number words names, or null. Ordinals give their cardinal. */
export function numberFromWords(text: string): number | null {
  const words = text
    .toLowerCase()
    .replace(/-/g, ' ')
    .replace(/\band\b|\ba\b(?=\s+(?:hundred|thousand|million))/g, (m) => (m === 'a' ? 'one' : ' '))
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return null;
  let total = 0;
  let current = 0;
  /** The number said since the last scale word, if any: "twenty" then "one" makes 21. */
  let group: number | null = null;
  let seen = false;
  for (let w of words) {
    // An ordinal after other number words is a fraction ("one sixth"), not a sum.
    const ordinal = !!ORDINALS[w] || /(?:th|ieth)$/.test(w);
    if (ordinal && words.length > 1) return null;
    if (ORDINALS[w]) w = ORDINALS[w];
    else if (/ieth$/.test(w)) w = w.replace(/ieth$/, 'y');
    else if (/th$/.test(w) && wordValue(w.slice(0, -2)) !== null) w = w.slice(0, -2);
    const v = wordValue(w);
    if (v !== null) {
      // A digit after tens ("twenty one"); any other number after a number is a year or nothing.
      if (group !== null && !(group >= 20 && group % 10 === 0 && group < 100 && v > 0 && v < 10)) return year(words);
      current += v;
      group = (group ?? 0) + v;
      seen = true;
    } else if (SCALES[w]) {
      if (!seen) return null;
      if (SCALES[w] === 100) current = (current || 1) * 100;
      else {
        total += (current || 1) * SCALES[w];
        current = 0;
      }
      group = null;
    } else if (OH.has(w) && seen) return year(words);
    else return null;
  }
  return seen ? total + current : null;
}
