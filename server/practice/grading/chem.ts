/**
 * Names of a chemical formula as written by a student ("O2", "NaCl", "CO2", "CaCl2"): the element
 * for a single element (with any subscript), and for a compound of two elements its systematic
 * name (metal + nonmetal-ide: sodium chloride; two nonmetals with Greek prefixes: carbon dioxide).
 * Element names come from WordNet, whose element senses list the symbol and "atomic number N".
 */
import { lookup, synset } from '../lexicon/wordnet.ts';

const NONMETALS = new Set(['H', 'He', 'B', 'C', 'N', 'O', 'F', 'Ne', 'Si', 'P', 'S', 'Cl', 'Ar', 'As', 'Se', 'Br', 'Kr', 'Te', 'I', 'Xe', 'Rn']);
const PREFIX = ['', 'mono', 'di', 'tri', 'tetra', 'penta', 'hexa', 'hepta', 'octa', 'nona', 'deca'];
/** The "-ide" stem of nonmetal anions. */
const IDE: Record<string, string> = { H: 'hydride', C: 'carbide', N: 'nitride', O: 'oxide', F: 'fluoride', P: 'phosphide', S: 'sulfide', Cl: 'chloride', Se: 'selenide', Br: 'bromide', I: 'iodide', Si: 'silicide', As: 'arsenide', Te: 'telluride', B: 'boride' };

const VALENCE: Record<string, number> = { F: 1, Cl: 1, Br: 1, I: 1, O: 2, S: 2, Se: 2, Te: 2, N: 3, P: 3 };

const FORMULA = /^(?:[A-Z][a-z]?\d*){1,4}$/;

export function elementName(symbol: string): string | null {
  for (const off of lookup(symbol)) {
    const s = synset(off);
    if (s.words.includes(symbol) && s.words.some((w) => /^atomic number \d+$/.test(w))) return s.words[0].toLowerCase();
  }
  return null;
}

/** Names the formula may stand for; empty when it is not a formula of known elements. */
export function formulaNames(raw: string): string[] {
  if (!FORMULA.test(raw) || !/\d|[a-z][A-Z]|[A-Z]{2}/.test(raw)) return [];
  const parts = [...raw.matchAll(/([A-Z][a-z]?)(\d*)/g)].map((m) => ({ symbol: m[1], n: m[2] ? Number(m[2]) : 1 }));
  const names = parts.map((p) => elementName(p.symbol));
  if (names.some((n) => n === null)) return [];
  if (parts.length === 1) return [names[0]!];
  if (parts.length !== 2 || !IDE[parts[1].symbol]) return [];
  const [a, b] = parts;
  const anion = IDE[b.symbol];
  // Hydrogen first: named without prefixes, and only in its usual proportion (HCl, H2S; not H2O2).
  if (a.symbol === 'H') return VALENCE[b.symbol] === a.n && b.n === 1 ? [`hydrogen ${anion}`] : [];
  // Metals name the compound without counting prefixes (sodium chloride, calcium chloride).
  if (!NONMETALS.has(a.symbol)) return [`${names[0]} ${anion}`];
  const pre = (n: number, first: boolean) => (first && n === 1 ? '' : PREFIX[n] ?? '');
  const second = `${pre(b.n, false)}${anion}`.replace(/^(mono|tetra|penta|hexa|hepta|octa|nona|deca)o/, (_m, p: string) => p.slice(0, -1) + 'o').replace(/^monoo/, 'mono');
  return [`${pre(a.n, true)}${names[0]} ${second}`.replace(/ao/g, 'o').replace(/oo/g, 'o')];
}
