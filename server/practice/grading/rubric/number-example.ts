/**
 * "Gives a correct example of a prime number": when the example asked for is a number with a
 * property arithmetic can check (prime, even, square, a multiple of 6...), the numbers the answer
 * offers are checked, not only that it offers one.
 */

type Test = (n: number) => boolean;

function isPrime(n: number): boolean {
  if (!Number.isInteger(n) || n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

const isSquare = (n: number) => Number.isInteger(n) && n >= 0 && Number.isInteger(Math.sqrt(n));
const isCube = (n: number) => Number.isInteger(n) && Number.isInteger(Math.round(Math.cbrt(n))) && Math.round(Math.cbrt(n)) ** 3 === n;

/** The property's word in the answer (to find where it speaks of it) and its test. */
export interface NumberProperty {
  word: RegExp;
  test: Test;
  name: string;
  /** The words that named it ("multiple of 6"). */
  phrase: string;
}

const PROPERTIES: { re: RegExp; make: (m: RegExpExecArray) => Omit<NumberProperty, 'phrase'> }[] = [
  { re: /\bprime\s+numbers?\b|\bprimes?\b/i, make: () => ({ name: 'prime', word: /\bprimes?\b/i, test: isPrime }) },
  { re: /\bcomposite\s+numbers?\b/i, make: () => ({ name: 'composite', word: /\bcomposite\b/i, test: (n) => Number.isInteger(n) && n > 3 && !isPrime(n) }) },
  { re: /\beven\s+numbers?\b/i, make: () => ({ name: 'even', word: /\beven\b/i, test: (n) => Number.isInteger(n) && n % 2 === 0 }) },
  { re: /\bodd\s+numbers?\b/i, make: () => ({ name: 'odd', word: /\bodd\b/i, test: (n) => Number.isInteger(n) && Math.abs(n % 2) === 1 }) },
  { re: /\b(?:perfect\s+)?square\s+numbers?\b|\bperfect\s+squares?\b/i, make: () => ({ name: 'square', word: /\bsquares?\b/i, test: isSquare }) },
  { re: /\bcube\s+numbers?\b|\bperfect\s+cubes?\b/i, make: () => ({ name: 'cube', word: /\bcubes?\b/i, test: isCube }) },
  {
    re: /\bmultiples?\s+of\s+(\d+)\b/i,
    make: (m) => ({ name: `multiple of ${m[1]}`, word: /\bmultiples?\b/i, test: (n) => Number.isInteger(n) && n !== 0 && n % Number(m[1]) === 0 }),
  },
  {
    re: /\b(?:factors?|divisors?)\s+of\s+(\d+)\b/i,
    make: (m) => ({ name: `factor of ${m[1]}`, word: /\b(?:factors?|divisors?)\b/i, test: (n) => Number.isInteger(n) && n > 0 && Number(m[1]) % n === 0 }),
  },
];

/** The checkable property an example must have, from the criterion (or else the question). */
export function numberProperty(criterion: string, question: string): NumberProperty | null {
  for (const text of [criterion, question]) {
    for (const p of PROPERTIES) {
      const m = p.re.exec(text);
      if (m) return { ...p.make(m), phrase: m[0] };
    }
  }
  return null;
}

const EXAMPLE_CUE = /\b(?:for example|for instance|e\.\s?g\.?|eg|such as|like|example)\b/i;
const DENIAL = /\b(?:not|no|never|isn't|aren't|neither|nor)\b/i;

/**
 * The numbers the answer offers as examples (in a sentence that names the property or says "for
 * example", and does not deny it), and those of them with the property.
 */
export function numberExamples(answer: string, property: NumberProperty): { offered: number[]; good: number[] } {
  const offered: number[] = [];
  for (const sentence of answer.split(/(?<!\d)[.;!?\n]+|[.;!?\n]+(?!\d)/)) {
    if (!(property.word.test(sentence) || EXAMPLE_CUE.test(sentence)) || DENIAL.test(sentence)) continue;
    // "A multiple of 6 is 42": the 6 names the property.
    const said = sentence.split(new RegExp(property.phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')).join(' ');
    for (const m of said.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g)) offered.push(Number(m[0]));
  }
  return { offered, good: offered.filter(property.test) };
}
