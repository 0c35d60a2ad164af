/** Helpers of the practice API suites: create a set, poll its status, grade through HTTP. */
import type { Client } from '../helpers/server.ts';

export const CREATE = '/v1/interactives/practice/create';
export const STATUS = '/v1/interactives/practice/status';
export const GRADE = '/v1/interactives/practice/grade';

export async function createSet(client: Client, body: Record<string, unknown>): Promise<string> {
  const r = await client.post(CREATE, body);
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.set_id;
}

/** Polls until `done(status)` holds (default: no longer pending). Bounded; not a timing assertion. */
export async function waitForSet(client: Client, id: string, done: (s: any) => boolean = (s) => s.status !== 'pending', ms = 30_000): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    const r = await client.get(`${STATUS}/${id}`);
    if (r.status !== 200) throw new Error(`status failed: ${r.status} ${JSON.stringify(r.body)}`);
    if (done(r.body)) return r.body;
    if (Date.now() > until) throw new Error(`set ${id} still ${r.body.status} (${r.body.completed_problems}/${r.body.total_problems})`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

export async function grade(client: Client, problem: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await client.post(GRADE, { problem, ...extra });
  if (r.status !== 200) throw new Error(`grade failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A wrong answer for any generated problem: another key, the complement key set, or a wrong value. */
export function wrongAnswer(
  p: { problem_type: string; correct_answer: string; answer_choices: Record<string, string> },
  /** Other problems of the set: a text answer takes another problem's (plausible but wrong) answer. */
  others: { problem_type: string; correct_answer: string }[] = [],
): string {
  const keys = Object.keys(p.answer_choices);
  if (p.problem_type === 'mcq') return keys.find((k) => k !== p.correct_answer)!;
  if (p.problem_type === 'select_all') {
    const correct = p.correct_answer.split(',');
    return keys.filter((k) => !correct.includes(k)).join(',');
  }
  if (/\d/.test(p.correct_answer)) return 'x = 987654';
  const other = others.find((o) => o.problem_type === 'frq' && o.correct_answer.toLowerCase() !== p.correct_answer.toLowerCase());
  return other?.correct_answer ?? 'zebra quartz';
}

/** Polls a condition (bounded). */
export async function until<T>(check: () => T | undefined | false | null | Promise<T | undefined | false | null>, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}
