import { numberFromWords } from '../number-words.ts';

/**
 * Answer text to plain mathematics that kas reads: LaTeX delimiters and mixed numbers, unicode
 * symbols, and the prose students wrap around a value ("the answer is 12", "x equals 4").
 */

const UNICODE: [RegExp, string][] = [
  [/[−–—]/g, '-'],
  [/[×·∙⋅]/g, '*'],
  [/÷/g, '/'],
  [/≤|⩽/g, '<='],
  [/≥|⩾/g, '>='],
  [/≈/g, '='],
  [/∞/g, 'inf'],
  [/π/g, 'pi'],
  [/∪/g, ' U '],
  [/½/g, ' 1/2'],
  [/¼/g, ' 1/4'],
  [/¾/g, ' 3/4'],
  [/⅓/g, ' 1/3'],
  [/⅔/g, ' 2/3'],
  [/⅕/g, ' 1/5'],
  [/⅖/g, ' 2/5'],
  [/⅗/g, ' 3/5'],
  [/⅘/g, ' 4/5'],
  [/⅙/g, ' 1/6'],
  [/⅚/g, ' 5/6'],
  [/⅛/g, ' 1/8'],
  [/⅜/g, ' 3/8'],
  [/⅝/g, ' 5/8'],
  [/⅞/g, ' 7/8'],
  [/\u00a0/g, ' '],
];

/** Prose around a value: removed (leading) or turned into symbols. */
const LEADING = /^(?:so\s*,?\s*)?(?:(?:my|the|final)\s+)*(?:answer|solution|result|value)s?\s*(?:is|are|=|:)\s*|^(?:it\s+is|it's|i\s+got|i\s+get|we\s+get|this\s+gives|equals|is)\s+/i;
const HEDGE = /\b(?:approximately|approx\.?|about|around|roughly|nearly|exactly)\s+/gi;

/** Parentheses around a numerator or denominator unless it is a single number or letter. */
function wrap(t: string): string {
  const x = t.trim();
  return /^(?:\d+(?:\.\d+)?|[a-z])$/i.test(x) ? x : `(${x})`;
}

const MATRIX_BEGIN = /\\begin\s*\{\s*([pbB]?matrix|smallmatrix)\s*\}/g;

const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';
const BASED = /^\(?([0-9A-Fa-f]+)\)?\s*(?:_\s*\{?(\d{1,2})\}?|([₀₁₂₃₄₅₆₇₈₉]{1,2})|\s+(?:in\s+)?base\s*(\d{1,2}))$/;

/** A whole answer that is a numeral with its base written after it, or null. */
function readBased(text: string): { digits: string; base: number } | null {
  const m = BASED.exec(text.trim());
  if (!m) return null;
  const base = Number(m[2] ?? m[4] ?? [...m[3]!].map((c) => SUBSCRIPT_DIGITS.indexOf(c)).join(''));
  const digits = m[1]!;
  if (base < 2 || base > 16 || ![...digits].every((c) => parseInt(c, 16) < base)) return null;
  // Letters as digits only above ten; an upper-case numeral keeps its case for the CAS to compare.
  return { digits: base > 10 ? digits.toUpperCase() : digits, base };
}

/** The base written after a whole-answer numeral ("10201₃" → 3), or null. */
export function baseOf(text: string): number | null {
  return readBased(text)?.base ?? null;
}

/** Superscript letters (and the digits and signs among them), each with its plain character. */
const SUPERSCRIPT_PLAIN: Record<string, string> = Object.fromEntries(
  [...'⁰¹²³⁴⁵⁶⁷⁸⁹'].map((c, i) => [c, String(i)]).concat(
    [['⁻', '-'], ['⁺', '+'], ['ˣ', 'x'], ['ʸ', 'y'], ['ⁿ', 'n'], ['ⁱ', 'i'], ['ᵗ', 't'], ['ᵏ', 'k'], ['ᵃ', 'a'], ['ᵇ', 'b'], ['ᶜ', 'c'], ['ᵐ', 'm'], ['ᵖ', 'p'], ['ʳ', 'r'], ['ˢ', 's'], ['ᵘ', 'u'], ['ᵛ', 'v'], ['ᶻ', 'z'], ['ᵉ', 'e'], ['ᵈ', 'd'], ['ᶠ', 'f'], ['ᵍ', 'g'], ['ʰ', 'h'], ['ʲ', 'j'], ['ˡ', 'l'], ['ᵒ', 'o'], ['ʷ', 'w'], ['ᶿ', 'θ']],
  ),
);
const SUPERSCRIPT_RUN = new RegExp(`[${Object.keys(SUPERSCRIPT_PLAIN).join('')}]+`, 'gu');

/**
 * LaTeX matrices as nested lists, "[[1, 2], [3, 4]]", and a single row or column as the vector
 * "(3, -5)". Found with indexOf, so the scan stays linear in the text.
 */
function latexMatrices(s: string): string {
  let out = '';
  let from = 0;
  MATRIX_BEGIN.lastIndex = 0;
  for (let m = MATRIX_BEGIN.exec(s); m; m = MATRIX_BEGIN.exec(s)) {
    const close = `\\end{${m[1]}}`;
    const end = s.indexOf(close, MATRIX_BEGIN.lastIndex);
    if (end < 0) break;
    const rows = s
      .slice(MATRIX_BEGIN.lastIndex, end)
      .split('\\\\')
      .map((r) => r.split('&').map((e) => e.trim()))
      .filter((r) => r.some((e) => e !== ''));
    const flat = rows.flat();
    const list = rows.length === 1 || rows.every((r) => r.length === 1) ? `(${flat.join(', ')})` : `[${rows.map((r) => `[${r.join(', ')}]`).join(', ')}]`;
    out += s.slice(from, m.index) + list;
    from = MATRIX_BEGIN.lastIndex = end + close.length;
  }
  return out + s.slice(from);
}

export function normalizeMath(input: string): string {
  let s = input.trim();
  // $...$, \( \), \[ \] delimiters; \left \right and spacing commands.
  s = s.replace(/^\$\$?([^$]*)\$\$?$/, '$1');
  if (s.includes('\\begin')) s = latexMatrices(s);
  s = s.replace(/\\\(|\\\)|\\\[|\\\]/g, ' ');
  // A vector in angle brackets, ⟨3, -5⟩ or \langle 3, -5 \rangle, is the tuple (3, -5).
  s = s.replace(/\\langle(?![a-zA-Z])|[⟨〈]/g, '(').replace(/\\rangle(?![a-zA-Z])|[⟩〉]/g, ')').replace(/^<([^<>=]*)>$/, (m, v: string) => (v.includes(',') ? `(${v})` : m));
  s = s.replace(/\\left|\\right|\\[,;:! ]|\\displaystyle|\\text\{([^}]*)\}|\\mathrm\{([^}]*)\}/g, (_m, a, b) => (a ?? b ?? '') && ` ${a ?? b} `);
  s = s.replace(/\\(?:le|leq|leqslant)\b/g, '<=').replace(/\\(?:ge|geq|geqslant)\b/g, '>=').replace(/\\infty\b/g, 'inf');
  s = s.replace(/\\cup\b/g, ' U ').replace(/\\pm\b/g, '±').replace(/\\(?:times|cdot)\b/g, '*').replace(/\\div\b/g, '/');
  s = s.replace(/\\%/g, '%').replace(/\\\$/g, '$').replace(/\\degree\b|\^\{?\\circ\}?/g, '°');
  // 2\frac{1}{2} is a mixed number, not 2 times a half.
  s = s.replace(/(\d)\s*\\d?frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}/g, '$1 $2/$3');
  // Innermost \sqrt{} and \frac{}{} as plain text, so forms can be checked on what was written.
  for (let i = 0; i < 4; i++) {
    s = s.replace(/\\sqrt\s*\{([^{}]*)\}/g, 'sqrt($1)').replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, (_m, a: string, b: string) => `${wrap(a)}/${wrap(b)}`);
  }
  s = s.replace(/\^\s*\{([^{}]*)\}/g, '^($1)');
  // 3e8, 3E-4, 3.0e+8: scientific notation, not 3·e·8; "3 x 10^8" and "3x10^8" too (x as times before 10^).
  s = s.replace(/(\d)[eE]\+?(-?\d+)\b/g, '$1*10^($2)');
  s = s.replace(/(\d)\s*[xX]\s*(?=10\s*(?:\^|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]))/g, '$1*');
  // Superscript letters are an exponent as superscript digits are: xeˣ is x*e^(x), e²ˣ is e^(2x) (tuned on H).
  s = s.replace(SUPERSCRIPT_RUN, (sup) => (/[^⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹]/.test(sup) ? `^(${[...sup].map((c) => SUPERSCRIPT_PLAIN[c] ?? c).join('')})` : sup));
  // A run of superscripts is one exponent: 10²³ is 10^23, 10⁻¹⁹ is 10^(-19).
  s = s.replace(/[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+/g, (sup) => {
    const digits = [...sup].map((c) => '⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)).filter((d) => d >= 0).join('');
    return sup.startsWith('⁻') ? `^(-${digits})` : `^${digits}`;
  });
  for (const [re, rep] of UNICODE) s = s.replace(re, rep);
  s = s.replace(/√\s*\(/g, 'sqrt(').replace(/√\s*([a-z0-9.]+)/gi, 'sqrt($1)');
  s = s.replace(/\binfinity\b/gi, 'inf');
  // Prose: "x equals 4", "is equal to", "is less than or equal to".
  s = s.replace(HEDGE, '');
  for (let i = 0; i < 3; i++) s = s.replace(LEADING, '').trim();
  s = s.replace(/\bis\s+less\s+than\s+or\s+equal\s+to\b/gi, '<=').replace(/\bis\s+greater\s+than\s+or\s+equal\s+to\b/gi, '>=');
  s = s.replace(/\bis\s+less\s+than\b/gi, '<').replace(/\bis\s+greater\s+than\b/gi, '>');
  s = s.replace(/\b(?:equals|is\s+equal\s+to|is)\b(?=\s*[-+\d(.])/gi, '=');
  // A reason after the value ("x = 4 because 3 + 1 = 4", "12, since ...").
  s = s.replace(/\s*[,;]?\s*\b(?:because|since|as|by|from|using)\b\s.*$/i, '');
  // Points as thousands separators (a decimal has one point): "1.000.000" is a million, "2.234,5"
  // a point-grouped number with a decimal comma (tuned on E).
  s = s.replace(/(?<![\d.,])(\d{1,3}(?:\.\d{3})+),(\d+)(?![\d.,])/g, (_m, a: string, b: string) => `${a.replace(/\./g, '')}.${b}`);
  s = s.replace(/(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.,])/g, (m) => m.replace(/\./g, ''));
  // 1,000,000 as one number (a list is written with spaces after its commas).
  s = s.replace(/(\d),(\d{3})(?=(?:,\d{3})*(?!\d))/g, '$1$2').replace(/(\d),(\d{3})(?!\d)/g, '$1$2');
  // 300 000 (thin-space thousands) as one number; "3 1/2" stays a mixed number.
  s = s.replace(/\b(\d{1,3})((?:[ \u2009\u202f]\d{3})+)(?![\d/.])/g, (_m, a: string, b: string) => a + b.replace(/[ \u2009\u202f]/g, ''));
  // A binary literal's prefix: "0b1010" is written 1010 in base 2.
  s = s.replace(/^0b([01]+)$/i, '$1');
  // A numeral with its base ("10201₃", "(10201)_3", "111 in base 10"): the digits as written, when
  // every digit belongs to that base; baseOf says which base was written (tuned on H).
  const based = readBased(s);
  if (based) s = based.digits;
  // "]-1, 3]", "[2, 5[": reversed brackets are open ends (the French and ISO notation).
  s = s.replace(/^\]\s*([^\[\],]+),\s*([^\[\],]+)\s*([\[\]])$/, (_m, a: string, b: string, c: string) => `(${a.trim()}, ${b.trim()}${c === '[' ? ')' : ']'}`);
  s = s.replace(/^\[\s*([^\[\],]+),\s*([^\[\],]+)\s*\[$/, '[$1, $2)');
  // "4 and 1/6" is the mixed number 4 1/6; "1 in 4" alone a probability, "2 to 3" alone a ratio.
  s = s.replace(/\b(\d+)\s+and\s+(\d+\s*\/\s*\d+)\b/gi, '$1 $2');
  s = s.replace(/^(\d+)\s+in\s+(\d+)$/i, '$1/$2').replace(/^(\d+(?:\.\d+)?)\s+to\s+(\d+(?:\.\d+)?)$/i, '$1 : $2');
  // Units with negative powers: "20 m s^-1", "9.8 ms^-2" are m/s and m/s^2.
  s = s.replace(/(\d\s*)m\s*s\s*\^\s*\(?\s*-\s*([12])\s*\)?(?![\w^])/g, (_m, n: string, p: string) => `${n}m/s${p === '2' ? '^2' : ''}`);
  s = s.replace(/\b([a-zA-Z]{1,3})\s+([a-zA-Z]{1,3})\s*\^\s*\(?\s*-\s*([123])\s*\)?(?![\w^])/g, (_m, a: string, b: string, p: string) => `${a}/${b}${p === '1' ? '' : `^${p}`}`);
  // A rounding note in brackets: "3.142 (3 d.p.)", "0.0451 (3 s.f.)".
  s = s.replace(/\s*\((?:to\s+|correct\s+to\s+)?\d+\s*(?:d\.?\s?p\.?|s\.?\s?f\.?|sig\.?\s*figs?\.?|decimal\s+places?|significant\s+figures?)\)\s*$/i, '');
  // A remark in brackets after the value: "x = 2 (repeated root)".
  s = s.replace(/\s*\((?=[^()]*[a-z]{3,})(?![^()]*\b(?:sqrt|sin|cos|tan|log|ln|pi|inf)\b)[^()]*\)\s*$/i, '');
  s = s.replace(/\s+/g, ' ').replace(/\s*\.$/, '').trim();
  return s;
}

const SPOKEN: [RegExp, string][] = [
  [/\b(?:negative|minus)\s+/gi, '-'],
  [/\s+(?:plus)\s+/gi, ' + '],
  [/\s+(?:times|multiplied by)\s+/gi, ' * '],
  [/\s+(?:divided by|over)\s+/gi, ' / '],
  [/\s+squared\b/gi, '^2'],
  [/\s+cubed\b/gi, '^3'],
  [/\bthe square root of\s+|\bsquare root of\s+|\broot\s+/gi, 'sqrt '],
];

/** Mathematics said in words: "negative 2", "one sixth", "two thirds", "x squared". */
export function spokenMath(text: string): string {
  let s = text;
  for (const [re, rep] of SPOKEN) s = s.replace(re, rep);
  s = s.replace(/\b((?:[a-z]+[\s-])*?[a-z]+)\s+(halves|half|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|hundredths?)\b/gi, (m, n: string, d: string) => {
    const num = n.toLowerCase() === 'a' ? 1 : numberFromWords(n);
    const den = numberFromWords(d.replace(/halves|half/i, 'two').replace(/quarters?/i, 'four').replace(/s$/, ''));
    return num !== null && den !== null ? `${num}/${den}` : m;
  });
  // The longest runs of words that are numbers: "six sides" is 6 sides, "twenty one" is 21.
  s = s.replace(/\b(?:[a-z]+[\s-])*[a-z]+\b/gi, (m) => {
    const words = m.split(/([\s-]+)/);
    const out: string[] = [];
    for (let i = 0; i < words.length; i += 2) {
      let end = -1;
      let value: number | null = null;
      for (let j = words.length - 1; j >= i && value === null; j -= 2) {
        value = numberFromWords(words.slice(i, j + 1).join(''));
        if (value !== null) end = j;
      }
      if (value === null) out.push(words[i]!, words[i + 1] ?? '');
      else {
        out.push(String(value), words[end + 1] ?? '');
        i = end;
      }
    }
    return out.join('');
  });
  return s.replace(/sqrt\s+(\d+|[a-z])/g, 'sqrt($1)');
}
