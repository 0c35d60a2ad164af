/** An expression of @khanacademy/kas as grading uses it (kas.ts), apart so that bounds.ts and exact.ts can name it without importing kas.ts. */
export interface KasExpr {
  eval(vars: Record<string, number>): number;
  getVars(): string[];
  print(): string;
  isSimplified(): boolean;
  simplify(): KasExpr;
}
