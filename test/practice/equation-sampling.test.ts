/**
 * Equations are compared by sampling (server/practice/grading/math/kas.ts): every variable must
 * get values of its own, or two different literal equations agree at every sample. With 14
 * samples and a stride of 7, the first and third variable were always equal and `t = d*r` graded
 * as `t = d/r`. Every pair of these forms, over several sets of names, is told apart; each form
 * equals itself rearranged.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';

const FORMS: [string, (a: string, b: string, c: string, d: string) => string, (a: string, b: string, c: string, d: string) => string][] = [
  ['product', (a, b, c) => `${a} = ${b}*${c}`, (a, b, c) => `${b}*${c} = ${a}`],
  ['quotient', (a, b, c) => `${a} = ${b}/${c}`, (a, b, c) => `${a}*${c} = ${b}`],
  ['inverse quotient', (a, b, c) => `${a} = ${c}/${b}`, (a, b, c) => `${a}*${b} = ${c}`],
  ['sum', (a, b, c) => `${a} = ${b} + ${c}`, (a, b, c) => `${a} - ${c} = ${b}`],
  ['difference', (a, b, c) => `${a} = ${b} - ${c}`, (a, b, c) => `${a} + ${c} = ${b}`],
  ['four variables', (a, b, c, d) => `${a} = ${b}*${c}/${d}`, (a, b, c, d) => `${a}*${d} = ${b}*${c}`],
  ['four variables, swapped', (a, b, c, d) => `${a} = ${b}*${d}/${c}`, (a, b, c, d) => `${a}*${c} = ${b}*${d}`],
];
const NAMES = [
  ['t', 'd', 'r', 'k'],
  ['A', 'l', 'w', 'h'],
  ['x', 'y', 'z', 'w'],
  ['V', 'h', 'r', 'b'],
];

const grade = (correct: string, answer: string) =>
  gradeAnswer({ problem_type: 'frq', problem_statement: 'Solve the formula for the first variable.', correct_answer: correct, user_answer: answer } as never).score;

describe('literal equations compared by sampling', () => {
  for (const names of NAMES) {
    const [a, b, c, d] = names as [string, string, string, string];
    it(`tells every pair of forms apart over ${names.join(', ')}`, () => {
      for (const [name, form, rearranged] of FORMS) {
        expect(grade(form(a, b, c, d), rearranged(a, b, c, d)), `${name} rearranged`).toBe(1);
        for (const [other, otherForm] of FORMS) {
          if (other === name) continue;
          expect(grade(form(a, b, c, d), otherForm(a, b, c, d)), `${name} vs ${other}`).toBe(0);
        }
      }
    });
  }
});
