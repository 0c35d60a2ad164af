/** Numbers written in words ("eight", "twenty-one", "one hundred and five", "third") as numerals. */

const UNITS = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };
const ORDINALS: Record<string, string> = { first: 'one', second: 'two', third: 'three', fifth: 'five', eighth: 'eight', ninth: 'nine', twelfth: 'twelve' };

function wordValue(w: string): number | null {
  const u = UNITS.indexOf(w);
  if (u >= 0) return u;
  const t = TENS.indexOf(w);
  return t >= 2 ? t * 10 : null;
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
      current += v;
      seen = true;
    } else if (SCALES[w]) {
      if (!seen) return null;
      if (SCALES[w] === 100) current = (current || 1) * 100;
      else {
        total += (current || 1) * SCALES[w];
        current = 0;
      }
    } else return null;
  }
  return seen ? total + current : null;
}
