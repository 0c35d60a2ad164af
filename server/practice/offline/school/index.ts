/** Every school sub-topic generator, by catalogue id. */
import type { TopicGenerator } from '../item.ts';
import { NUMBER_GENERATORS } from './number.ts';
import { RATIO_GENERATORS } from './ratios.ts';
import { ALGEBRA_GENERATORS } from './algebra.ts';
import { FUNCTION_GENERATORS } from './functions.ts';
import { MEASURE_GENERATORS } from './measures.ts';
import { LEGACY_GENERATORS } from './legacy.ts';

export const SCHOOL_GENERATORS: readonly TopicGenerator[] = [...NUMBER_GENERATORS, ...RATIO_GENERATORS, ...ALGEBRA_GENERATORS, ...FUNCTION_GENERATORS, ...MEASURE_GENERATORS, ...LEGACY_GENERATORS];
