/**
 * Times of day ("9:35 pm", "21:35", "9.35pm", "9:35 in the evening"): read as minutes after
 * midnight and compared as such. A time without am/pm whose hour is 12 or less may be either half
 * of the day: equal to the reference in one of them, it is accepted and `low`.
 */
import type { GradeResult } from '../types.ts';

const CLOCK = /^\s*(?:at\s+)?(\d{1,2})\s*[:.h]\s*(\d{2})\s*(a\.?\s?m\.?|p\.?\s?m\.?|in\s+the\s+(?:morning|afternoon|evening)|at\s+night|hrs?|hours)?\s*\.?\s*$/i;
const HOUR_ONLY = /^\s*(?:at\s+)?(\d{1,2})\s*(a\.?\s?m\.?|p\.?\s?m\.?|o'?\s?clock\s+in\s+the\s+(?:morning|afternoon|evening))\s*\.?\s*$/i;

export interface ClockTime {
  minutes: number;
  /** Whether the text says which half of the day (am/pm, 24-hour hours, "in the evening"). */
  definite: boolean;
}

/** A time of day, or null when the text is not only one. */
export function readClock(text: string): ClockTime | null {
  const m = CLOCK.exec(text) ?? HOUR_ONLY.exec(text);
  if (!m) return null;
  const colon = CLOCK.test(text);
  let hour = Number(m[1]);
  const minute = colon ? Number(m[2]) : 0;
  const half = (colon ? m[3] : m[2])?.toLowerCase().replace(/[\s.]/g, '') ?? '';
  if (hour > 23 || minute > 59) return null;
  const pm = /^pm|afternoon|evening|night/.test(half);
  const am = /^am|morning/.test(half);
  if (pm || am) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
    return { minutes: hour * 60 + minute, definite: true };
  }
  // "21:35", "09:35", "0935 hrs": a 24-hour time says its half of the day.
  return { minutes: hour * 60 + minute, definite: hour === 0 || hour > 12 || /^0\d/.test(m[1]!) || /^h/.test(half) };
}

/** A question about a time of day: "12:18" alone may be a ratio. */
const TIME_QUESTION = /\b(?:time|clock|o'?clock|what\s+time|when\s+(?:does|did|will)|starts?|ends?|finish(?:es)?|arrives?|leaves?|departs?|timetable)\b/i;

/** Grades an answer against a time-of-day reference; null when the reference is not one (or the question is not about one). */
export function gradeClock(userAnswer: string, reference: string, statement: string): GradeResult | null {
  const ref = readClock(reference);
  if (!ref || !(ref.definite && /[a-z]/i.test(reference) ? true : TIME_QUESTION.test(statement))) return null;
  const user = readClock(userAnswer);
  const base = { max_score: 1, method: 'math' as const };
  if (!user) return { ...base, score: 0, met: [], missed: [reference], explanation: `"${userAnswer.trim()}" could not be read as a time of day. The expected answer is ${reference}.`, confidence: 'low', needs_review: true };
  const sameAnyHalf = user.minutes % 720 === ref.minutes % 720;
  const equal = user.minutes === ref.minutes || (!user.definite && sameAnyHalf) || (!ref.definite && sameAnyHalf);
  // Both halves of the day said, or the minutes differ: checkable. One half unsaid: the grader picked it.
  const sure = (user.definite && ref.definite) || !sameAnyHalf;
  return equal
    ? { ...base, score: 1, met: [reference], missed: [], explanation: `Correct: ${userAnswer.trim()} is the time ${reference}.`, confidence: sure ? 'high' : 'low', needs_review: !sure }
    : { ...base, score: 0, met: [], missed: [reference], explanation: `${userAnswer.trim()} is not the time ${reference}. The expected answer is ${reference}.`, confidence: sure ? 'high' : 'low', needs_review: !sure };
}
