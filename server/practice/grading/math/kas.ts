/** The part of @khanacademy/kas (Khan Academy's CAS for answer checking) that grading uses. */
import * as KAS from '@khanacademy/kas';

export interface KasExpr {
  eval(vars: Record<string, number>): number;
  getVars(): string[];
  print(): string;
  isSimplified(): boolean;
  simplify(): KasExpr;
}
interface Kas {
  parse(s: string): { parsed: boolean; expr: KasExpr };
  compare(a: KasExpr, b: KasExpr): { equal: boolean; message: string | null };
}
const kas = ((KAS as unknown as { default?: Kas }).default ?? (KAS as unknown as Kas)) as Kas;

export function parse(s: string): KasExpr | null {
  if (!s.trim()) return null;
  const p = kas.parse(s);
  return p.parsed ? p.expr : null;
}

/** Same mathematical object (expressions, equations up to rearrangement and scaling, inequalities). */
export function same(a: KasExpr, b: KasExpr): boolean {
  return kas.compare(a, b).equal;
}

/** The value of an expression without variables, or NaN. */
export function valueOf(s: string): number {
  const e = parse(s);
  if (!e || e.getVars().length > 0) return Number.NaN;
  try {
    return e.eval({});
  } catch {
    return Number.NaN;
  }
}
