/**
 * The first engine's generators as catalogue sub-topics: order of operations, laws of exponents,
 * derivatives and integrals of polynomials. Their items gain the sub-topic in `params.subtopic`
 * and a CAS `verify` (the value, or the function at several points, against the CAS's own).
 */
import { diff } from '../cas.ts';
import type { Item, TopicGenerator } from '../item.ts';
import { arithmetic } from '../math/arithmetic.ts';
import { derivatives } from '../math/derivatives.ts';
import { exponents } from '../math/exponents.ts';
import { integrals } from '../math/integrals.ts';
import { at, casOf, sameValue } from './kit.ts';

/** Two functions of x agree at several points (exactly, by the CAS). */
function sameFunction(a: string, b: string): boolean {
  try {
    return ['2', '3', '-5', '1/2'].every((x) => sameValue(at(a, { x: `(${x})` }), at(b, { x: `(${x})` })));
  } catch {
    return false;
  }
}

function verifierOf(id: string, item: Item): (v: string) => boolean {
  const p = item.params;
  switch (id) {
    case 'arithmetic':
      return (v) => sameValue(v, String(p.expression));
    case 'exponents':
      return (v) => sameFunction(casOf(v), String(p.expression));
    case 'derivatives': {
      const d = diff(String(p.f));
      return (v) => sameFunction(casOf(v), d);
    }
    default: {
      if (p.definite) return (v) => sameValue(v, item.answer);
      // An antiderivative: with its constant, and differentiating back to f.
      return (v) => /\+\s*C\s*$/.test(v) && sameFunction(diff(casOf(v.replace(/\+\s*C\s*$/, ''))), String(p.f).replace(/\)\(/g, ')*('));
    }
  }
}

function catalogued(gen: TopicGenerator): TopicGenerator {
  return {
    ...gen,
    make(rng, level, index) {
      const item = gen.make(rng, level, index);
      const verify = verifierOf(gen.id, item);
      if (!verify(item.answer)) throw new Error(`${gen.id}: the CAS does not verify ${item.answer}`);
      return { ...item, distractors: item.distractors.filter((d) => !verify(d.value)), params: { subtopic: gen.id, ...item.params }, verify };
    },
  };
}

export const LEGACY_GENERATORS = [arithmetic, exponents, derivatives, integrals].map(catalogued);
