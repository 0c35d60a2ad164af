/** What a rubric reads as: the criteria an answer is scored on. */
import type { Contraries } from './contrary.ts';

/** One thing the answer must say, worth `points`. */
export interface Concept {
  kind: 'concept';
  /** As the rubric writes it, without points, list markers and accept/reject notes. */
  text: string;
  points: number;
  /** Wordings any one of which meets it: the criterion first, then accepted alternatives. */
  variants: string[];
  /** Wordings that earn nothing for it ("do not accept X", "reject X"). */
  rejects: string[];
}

/** One level of a level-descriptor criterion. */
export interface Level {
  /** "3 marks", "Level 2 (3-4 marks)", "Full marks". */
  label: string;
  /** Points for meeting the descriptor; `min` (the bottom of a "3-4 marks" range) when it is met only in part. */
  points: number;
  min: number;
  text: string;
  variants: string[];
  rejects: string[];
  /** How many indicative points meet it: the number it names ("two or more effects"), else its rank from the bottom. */
  needs: number;
  /** `needs` is a number the descriptor names ("both reasons", "one example"), not its rank. */
  counted: boolean;
}

/** Level descriptors: the answer earns the highest level whose descriptor it meets. */
export interface Levels {
  kind: 'levels';
  text: string;
  /** The top level's points. */
  points: number;
  /** Highest first. */
  levels: Level[];
  /** "Indicative content" listed beside the levels: a level is also met by this many of its points (`Level.needs`). */
  guidance: Concept[];
}

/** "1 point for each ..., up to 3": distinct items of the answer counted, `per` each, at most `points`. */
export interface PerItem {
  kind: 'each';
  text: string;
  /** The cap. */
  points: number;
  per: number;
  /** Items the rubric names ("any of: A, B, C"); each counts once. */
  options: Concept[];
  /** The options are examples ("e.g."): other items of the answer may count too. With no options, every distinct item may. */
  open: boolean;
  /** A WordNet noun every counted item must be a kind of ("example of a mammal"), when WordNet knows it well. */
  category: string | null;
  /** Kinds no counted item may be: what a qualified category rules out ("renewable energy source": fossil fuels). */
  contraries: Contraries;
  /** The descriptor's own words: an answer item made only of these adds nothing. */
  topic: string;
  rejects: string[];
}

export type Criterion = Concept | Levels | PerItem;

export interface ReadRubric {
  criteria: Criterion[];
  /** What the rubric says its total is ("Total: 6", "Award 3 marks for:"), when it says. */
  declaredTotal: number | null;
  /** How the reading settled an ambiguity (told to the teacher in the explanation). */
  notes: string[];
  /** A total the rubric states (not a cap), which max_score must equal even when its points add up otherwise. */
  statedTotal?: number | null;
  /** The stated total is a cap on the criteria's marks ("Max. 4" under five marks): marks beyond it are not earned, not scaled. */
  capTotal?: boolean;
  /** Whether the rubric writes any points or total; false: max_score is the grader's convention (1 per criterion) and a teacher should confirm it. */
  totalRead?: boolean;
}
