/**
 * Units written after (or, for money, before) a number: their dimension and how to convert them
 * to the dimension's base unit, so "500 cm" equals "5 m" and "92 dollars" equals "$92". Symbols
 * are matched with their case ("m" is not "M"), words without it.
 */

import lemmatizer from 'wink-lemmatizer';

export interface Unit {
  /** What is measured: length, mass, money (per currency)... Only the same dimension compares. */
  dim: string;
  /** How the unit was written, for explanations. */
  text: string;
  toBase(x: number): number;
  /** Other meanings of the same text ("pounds": mass, or money in £). */
  others: Unit[];
}

interface Def {
  dim: string;
  factor: number;
  offset?: number;
  symbols?: string[];
  words?: string[];
}

const LENGTH: [number, string[], string[]][] = [
  [0.001, ['mm'], ['millimetre', 'millimeter']],
  [0.01, ['cm'], ['centimetre', 'centimeter']],
  [0.1, ['dm'], ['decimetre', 'decimeter']],
  [1, ['m'], ['metre', 'meter']],
  [1000, ['km'], ['kilometre', 'kilometer']],
  [0.0254, ['in', '"'], ['inch']],
  [0.3048, ['ft', "'"], ['foot', 'feet']],
  [0.9144, ['yd'], ['yard']],
  [1609.344, ['mi'], ['mile']],
];

const DEFS: Def[] = [
  { dim: 'mass', factor: 1e-6, symbols: ['mg'], words: ['milligram', 'milligramme'] },
  { dim: 'mass', factor: 1e-3, symbols: ['g'], words: ['gram', 'gramme'] },
  { dim: 'mass', factor: 1, symbols: ['kg'], words: ['kilogram', 'kilogramme', 'kilo'] },
  { dim: 'mass', factor: 1000, symbols: ['t'], words: ['tonne', 'metric ton'] },
  { dim: 'mass', factor: 0.45359237, symbols: ['lb', 'lbs'], words: ['pound'] },
  { dim: 'mass', factor: 0.028349523125, symbols: ['oz'], words: ['ounce'] },
  { dim: 'time', factor: 0.001, symbols: ['ms'], words: ['millisecond'] },
  { dim: 'time', factor: 1, symbols: ['s', 'sec', 'secs'], words: ['second'] },
  { dim: 'time', factor: 60, symbols: ['min', 'mins'], words: ['minute'] },
  { dim: 'time', factor: 3600, symbols: ['h', 'hr', 'hrs'], words: ['hour'] },
  { dim: 'time', factor: 86400, words: ['day'] },
  { dim: 'time', factor: 604800, words: ['week'] },
  { dim: 'volume', factor: 1e-6, symbols: ['ml', 'mL', 'cc'], words: ['millilitre', 'milliliter'] },
  { dim: 'volume', factor: 1e-3, symbols: ['l', 'L'], words: ['litre', 'liter'] },
  { dim: 'volume', factor: 0.003785411784, symbols: ['gal'], words: ['gallon'] },
  { dim: 'area', factor: 1e4, symbols: ['ha'], words: ['hectare'] },
  { dim: 'area', factor: 4046.8564224, words: ['acre'] },
  { dim: 'speed', factor: 1, symbols: ['m/s', 'ms^-1'], words: ['metres per second', 'meters per second'] },
  { dim: 'speed', factor: 1 / 3.6, symbols: ['km/h', 'kmh', 'kph', 'km/hr'], words: ['kilometres per hour', 'kilometers per hour'] },
  { dim: 'speed', factor: 0.44704, symbols: ['mph'], words: ['miles per hour'] },
  { dim: 'speed', factor: 0.3048, symbols: ['ft/s'], words: ['feet per second'] },
  { dim: 'temperature', factor: 1, offset: 273.15, symbols: ['°C', '° C', 'ºC', 'C'], words: ['degrees celsius', 'degree celsius', 'celsius', 'degrees centigrade', 'centigrade'] },
  { dim: 'temperature', factor: 5 / 9, offset: 459.67 * (5 / 9), symbols: ['°F', '° F', 'ºF', 'F'], words: ['degrees fahrenheit', 'degree fahrenheit', 'fahrenheit'] },
  { dim: 'temperature', factor: 1, symbols: ['K'], words: ['kelvin', 'kelvins'] },
  { dim: 'angle', factor: 1, symbols: ['°', 'deg'], words: ['degree'] },
  { dim: 'angle', factor: 180 / Math.PI, symbols: ['rad'], words: ['radian'] },
  { dim: 'energy', factor: 1, symbols: ['J'], words: ['joule'] },
  { dim: 'energy', factor: 1000, symbols: ['kJ'], words: ['kilojoule'] },
  { dim: 'energy', factor: 4.184, symbols: ['cal'], words: ['calorie'] },
  { dim: 'energy', factor: 4184, symbols: ['kcal', 'Cal'], words: ['kilocalorie'] },
  { dim: 'power', factor: 1, symbols: ['W'], words: ['watt'] },
  { dim: 'power', factor: 1000, symbols: ['kW'], words: ['kilowatt'] },
  { dim: 'force', factor: 1, symbols: ['N'], words: ['newton'] },
  { dim: 'pressure', factor: 1, symbols: ['Pa'], words: ['pascal'] },
  { dim: 'pressure', factor: 1000, symbols: ['kPa'], words: ['kilopascal'] },
  { dim: 'frequency', factor: 1, symbols: ['Hz'], words: ['hertz'] },
  { dim: 'voltage', factor: 1, symbols: ['V'], words: ['volt'] },
  { dim: 'voltage', factor: 1e-3, symbols: ['mV'], words: ['millivolt'] },
  { dim: 'voltage', factor: 1000, symbols: ['kV'], words: ['kilovolt'] },
  { dim: 'current', factor: 1, symbols: ['A'], words: ['ampere', 'amp'] },
  { dim: 'current', factor: 1e-3, symbols: ['mA'], words: ['milliampere', 'milliamp'] },
  { dim: 'resistance', factor: 1, symbols: ['Ω', 'ohm'], words: ['ohm'] },
  { dim: 'resistance', factor: 1000, symbols: ['kΩ'], words: ['kilohm', 'kiloohm'] },
  { dim: 'charge', factor: 1, symbols: ['C'], words: ['coulomb'] },
  { dim: 'money:USD', factor: 1, symbols: ['$', 'USD', 'US$'], words: ['dollar', 'buck'] },
  { dim: 'money:USD', factor: 0.01, symbols: ['¢', 'c'], words: ['cent'] },
  { dim: 'money:EUR', factor: 1, symbols: ['€', 'EUR'], words: ['euro'] },
  { dim: 'money:GBP', factor: 1, symbols: ['£', 'GBP'], words: ['pounds sterling', 'pound sterling', 'pound', 'quid'] },
  { dim: 'money:GBP', factor: 0.01, symbols: ['p'], words: ['pence', 'penny'] },
];

// Length, area and volume from the same table: cm, cm^2, square centimetres, cubic cm...
for (const [f, symbols, words] of LENGTH) {
  DEFS.push({ dim: 'length', factor: f, symbols, words });
  const sq = symbols.filter((s) => /^[a-z]+$/.test(s));
  DEFS.push({ dim: 'area', factor: f * f, symbols: sq.flatMap((s) => [`${s}^2`, `${s}2`, `sq ${s}`, `sq. ${s}`]), words: words.flatMap((w) => [`square ${w}`, `sq ${w}`]) });
  DEFS.push({ dim: 'volume', factor: f ** 3, symbols: sq.flatMap((s) => [`${s}^3`, `${s}3`, `cu ${s}`, `cubic ${s}`]), words: words.map((w) => `cubic ${w}`) });
}

interface Alias {
  text: string;
  caseSensitive: boolean;
  def: Def;
}

const ALIASES: Alias[] = DEFS.flatMap((def) => [
  ...(def.symbols ?? []).map((text) => ({ text, caseSensitive: true, def })),
  ...(def.words ?? []).flatMap((w) => {
    const plural =
      w.endsWith('s') || w.endsWith('z') ? [w] : w === 'foot' ? [w] : w.endsWith('y') && !w.endsWith('ay') ? [w, `${w.slice(0, -1)}ies`] : /(?:ch|sh|x)$/.test(w) ? [w, `${w}es`] : [w, `${w}s`];
    // "metres per second": the plural sits on the first word.
    const perPlural = / per /.test(w) ? [w] : [];
    return [...new Set([...plural, ...perPlural])].map((text) => ({ text, caseSensitive: false, def }));
  }),
]).sort((a, b) => b.text.length - a.text.length);

function unitsOf(al: Alias, text: string): Unit {
  const same = ALIASES.filter((o) => o.text === al.text && o.caseSensitive === al.caseSensitive);
  const [first, ...rest] = same.map((o): Unit => ({ dim: o.def.dim, text, toBase: (x) => x * o.def.factor + (o.def.offset ?? 0), others: [] }));
  first.others = rest;
  return first;
}

export function findUnit(text: string): Unit | null {
  const t = text.trim();
  const a = ALIASES.find((al) => (al.caseSensitive ? al.text === t : al.text === t.toLowerCase()));
  return a ? unitsOf(a, t) : null;
}

/** The meaning of a unit that measures `dim`, if it has one. */
export function asDimension(u: Unit, dim: string): Unit | null {
  return [u, ...u.others].find((m) => m.dim === dim) ?? null;
}

/**
 * Splits "500 cm", "$92", "92 dollars", "-3 °C" into the number's text and its unit. A text with
 * no known unit comes back whole with `unit: null`.
 */
export function splitUnit(input: string): { value: string; unit: Unit | null } {
  const s = input.trim();
  const lead = /^(-?)\s*(US\$|\$|€|£)\s*(.+)$/.exec(s);
  if (lead) {
    const rest = splitUnit(lead[3]);
    if (!rest.unit) return { value: `${lead[1]}${rest.value}`, unit: findUnit(lead[2]) };
  }
  for (const al of ALIASES) {
    if (s.length <= al.text.length) continue;
    const tail = s.slice(s.length - al.text.length);
    if (al.caseSensitive ? tail !== al.text : tail.toLowerCase() !== al.text) continue;
    const value = s.slice(0, s.length - al.text.length);
    // The unit must follow a number (or its closing bracket), with or without a space; a word
    // unit must be a whole word.
    // "4π radians": a word unit may follow π after a space.
    if (!/[\d).}]\s*$/.test(value) && !(/^[a-z]{2,}/i.test(al.text) && /(?:pi|π)\s+$/.test(value))) continue;
    if (/^[a-z]/i.test(al.text) && /[a-z]$/i.test(value)) continue;
    return { value: value.trim(), unit: unitsOf(al, al.text) };
  }
  // A rate of two known units: km/s, miles per hour already listed, g/cm^3...
  const rate = /^(.*?[\d).}])\s*([a-zA-Z°µ$€£]+(?:\^?[23])?)\s*(?:\/|\s+per\s+)\s*([a-zA-Z]+(?:\^?[23])?)$/.exec(s);
  if (rate) {
    const top = findUnit(rate[2]);
    // m/s^2: per second squared.
    const squared = /^([a-zA-Z]+)\^?2$/.exec(rate[3]);
    const base = squared ? findUnit(squared[1]) : null;
    const bottom = base ? { ...base, dim: `${base.dim}^2`, toBase: (x: number) => base.toBase(x) * base.toBase(1) } : findUnit(rate[3]);
    // Length over time is a speed, comparable with m/s, km/h and mph.
    const dim = top?.dim === 'length' && bottom?.dim === 'time' ? 'speed' : `${top?.dim}/${bottom?.dim}`;
    if (top && bottom) return { value: rate[1].trim(), unit: { dim, text: `${rate[2]}/${rate[3]}`, toBase: (x) => top.toBase(x) / bottom.toBase(1), others: [] } };
  }
  // A count of things ("6 cups", "12 apples"): a unit of its own, equal only to itself.
  const count = /^(.*?\d[\d).]*)\s+([a-zA-Z]{3,})$/.exec(s);
  if (count && !/^(?:pi|sqrt|inf)$/i.test(count[2])) {
    const noun = lemmatizer.noun(count[2].toLowerCase());
    return { value: count[1].trim(), unit: { dim: `count:${noun}`, text: count[2], toBase: (x) => x, others: [] } };
  }
  return { value: s, unit: null };
}

/**
 * "30 newton metres", "6 newton seconds": a run of two unit words or more after a number, written
 * as their symbols ("30 N m"), so a compound unit in words reads as the one in symbols (tuned on H).
 * Each word must be a unit word with a symbol; anything else leaves the text as it is.
 */
export function unitWordsAsSymbols(text: string): string {
  const m = /^(.*\d\s*)([a-z]+(?:\s+[a-z]+){1,3})$/i.exec(text.trim());
  if (!m) return text;
  const words = m[2]!.trim().split(/\s+/);
  const symbols = words.map((w) => {
    const al = ALIASES.find((a) => !a.caseSensitive && a.text === w.toLowerCase());
    return al?.def.symbols?.find((s) => /^[A-Za-zΩ]+$/.test(s)) ?? null;
  });
  if (symbols.some((s) => s === null)) return text;
  return `${m[1]!.trimEnd()} ${symbols.join(' ')}`;
}
