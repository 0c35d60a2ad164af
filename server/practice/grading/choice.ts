/**
 * Choice problems. mcq: exactly the right key. select_all: each right key picked earns one
 * share, each wrong key picked cancels one share, never below zero:
 * score = max(0, hits − wrong picks) / number of right keys.
 */
import type { GradeResult } from '../types.ts';
import { GradingInputError } from './errors.ts';

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.]$/, '');

export function parseKeys(raw: string, choices: Record<string, string>, loc: (string | number)[]): string[] {
  const keys = Object.keys(choices);
  const byUpper = new Map(keys.map((k) => [k.toUpperCase(), k]));
  const tokens = raw
    .replace(/\b(and|or)\b/gi, ',')
    .split(/[\s,;/|&+]+/)
    .map((t) => t.replace(/^[([]|[)\].:]$/g, '').toUpperCase())
    .filter(Boolean);
  if (tokens.length > 0 && tokens.every((t) => byUpper.has(t))) return [...new Set(tokens.map((t) => byUpper.get(t)!))];
  // The choice's text typed out instead of its key.
  const whole = norm(raw);
  const byText = keys.filter((k) => norm(choices[k]) === whole);
  if (byText.length === 1) return byText;
  if (raw.trim() === '') return [];
  void loc;
  return tokens.filter((t) => byUpper.has(t)).map((t) => byUpper.get(t)!);
}

export function gradeChoice(type: 'mcq' | 'select_all', userAnswer: string, correctAnswer: string, choices: Record<string, string>): GradeResult {
  const correct = parseKeys(correctAnswer, choices, ['body', 'problem', 'correct_answer']);
  if (correct.length === 0) {
    throw new GradingInputError(['body', 'problem', 'correct_answer'], `correct_answer must name the key(s) of the right choice(s) among ${Object.keys(choices).join(', ')}.`);
  }
  const picked = parseKeys(userAnswer, choices, ['body', 'problem', 'user_answer']);
  const show = (k: string) => `${k} (${choices[k]})`;
  if (type === 'mcq') {
    const right = picked.length === 1 && picked[0] === correct[0];
    return {
      score: right ? 1 : 0,
      max_score: 1,
      method: 'choice',
      met: right ? [show(correct[0])] : [],
      missed: right ? [] : [show(correct[0])],
      explanation: right
        ? `Correct: ${show(correct[0])}.`
        : picked.length === 0
          ? `No choice recognised in the answer; the correct choice is ${show(correct[0])}.`
          : `${picked.length > 1 ? `Several choices (${picked.join(', ')}) were given where one is asked for` : `${show(picked[0])} is not correct`}; the correct choice is ${show(correct[0])}.`,
    };
  }
  const hits = picked.filter((k) => correct.includes(k));
  const wrong = picked.filter((k) => !correct.includes(k));
  const missing = correct.filter((k) => !picked.includes(k));
  const score = Math.round((Math.max(0, hits.length - wrong.length) / correct.length) * 100) / 100;
  const parts = [`${hits.length} of ${correct.length} correct choice(s) selected`];
  if (wrong.length) parts.push(`${wrong.length} wrong choice(s) selected (${wrong.join(', ')}), each cancelling one correct pick`);
  if (missing.length) parts.push(`missed ${missing.map(show).join(', ')}`);
  return {
    score,
    max_score: 1,
    method: 'choice',
    met: hits.map(show),
    missed: [...missing.map(show), ...wrong.map((k) => `${show(k)} selected but wrong`)],
    explanation: `${parts.join('; ')}. Score = max(0, right picks − wrong picks) / ${correct.length} = ${score}. Correct choices: ${correct.join(', ')}.`,
  };
}
