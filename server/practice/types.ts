/** Shared types of the practice engines (offline and LLM) and of grading. */

export type ProblemType = 'mcq' | 'frq' | 'select_all';
export type SetProblemType = ProblemType | 'mixed';
export type Difficulty = 'easy' | 'medium' | 'hard';

export interface PracticeProblem {
  problem_type: ProblemType;
  problem_statement: string;
  correct_answer: string;
  difficulty: Difficulty;
  /** {} for frq; keys "A","B",...; a select_all correct_answer lists keys like "A,C". */
  answer_choices: Record<string, string>;
  explanation: string;
  scoring_details: string;
  include_graph: boolean;
  graph_description: string;
  graph_url: string;
}

export interface GenerateRequest {
  description: string;
  count: number;
  problemType: SetProblemType;
  difficulty: Difficulty;
  /** Text excerpts from the caller's journals when search_for_problems is true. */
  context?: string[];
  /** Deterministic output when given. */
  seed?: number;
}

export interface GradeInput {
  problem_type: string;
  problem_statement: string;
  user_answer: string;
  correct_answer?: string;
  answer_choices?: Record<string, string>;
  scoring_details?: string;
}

export type GradeMethod = 'choice' | 'math' | 'rubric';

export interface GradeResult {
  score: number;
  max_score: number;
  explanation: string;
  method: GradeMethod;
  /** Concepts, choices or solutions the answer got right. */
  met: string[];
  /** Concepts, choices or solutions the answer missed or contradicted. */
  missed: string[];
  /** `high` when every rule that decided the grade is one the grader can check; `low` otherwise. */
  confidence?: 'high' | 'low';
  /** The grader is not sure (or could not check): a teacher should look. */
  needs_review?: boolean;
  /** Rubrics: each criterion, its points, the points awarded and the answer's words that met it ('' when unmet). */
  criteria?: CriterionGrade[];
}

export interface CriterionGrade {
  criterion: string;
  points: number;
  awarded: number;
  evidence: string;
}

export type PlanResult =
  | { ok: true; engine: string; setName: string; total: number; next(index: number): PracticeProblem }
  | { ok: false; message: string };
