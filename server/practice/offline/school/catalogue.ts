/**
 * The catalogue of named mathematics sub-topics the offline engine makes (grades 5 to 9, Algebra 1,
 * and the polynomial calculus it always had): id, name, area, what each difficulty level holds,
 * and example descriptions (each of which matches exactly its own sub-topic: tested). Metadata only,
 * no CAS, so `GET /v1/interactives/practice/topics` lists it without loading the generators.
 */
import type { Difficulty } from '../../types.ts';

export interface SubTopicInfo {
  id: string;
  name: string;
  /** The broader topic it belongs to (a description naming the area gets every sub-topic of it). */
  area: string;
  levels: Record<Difficulty, string>;
  examples: string[];
}

const L = (easy: string, medium: string, hard: string): Record<Difficulty, string> => ({ easy, medium, hard });

export const AREAS: Record<string, string> = {
  number: 'Number operations',
  ratios: 'Ratios, rates and proportions',
  percent: 'Percent',
  powers: 'Exponents, roots and scientific notation',
  expressions: 'Expressions',
  equations: 'Equations and inequalities',
  'linear-functions': 'Linear functions',
  systems: 'Systems of linear equations',
  polynomials: 'Polynomials',
  quadratics: 'Quadratic equations',
  geometry: 'Geometry',
  statistics: 'Statistics and probability',
  units: 'Unit conversions',
  calculus: 'Calculus of polynomials',
};

export const CATALOGUE: readonly SubTopicInfo[] = [
  // Number operations: each operation on its own.
  { id: 'fraction-addition', name: 'Adding fractions', area: 'number', levels: L('same or multiple denominators', 'unlike denominators', 'mixed numbers'), examples: ['adding fractions', 'adding fractions with unlike denominators'] },
  { id: 'fraction-subtraction', name: 'Subtracting fractions', area: 'number', levels: L('same or multiple denominators', 'unlike denominators', 'mixed numbers'), examples: ['subtracting fractions', 'fraction subtraction'] },
  { id: 'fraction-multiplication', name: 'Multiplying fractions', area: 'number', levels: L('proper fractions', 'fractions and whole numbers, cancelling', 'mixed numbers'), examples: ['multiplying fractions', 'multiplication of fractions'] },
  { id: 'fraction-division', name: 'Dividing fractions', area: 'number', levels: L('proper fractions', 'fractions and whole numbers', 'mixed numbers'), examples: ['dividing fractions', 'division of fractions'] },
  { id: 'decimal-addition', name: 'Adding decimals', area: 'number', levels: L('tenths', 'hundredths, different lengths', 'thousandths'), examples: ['adding decimals'] },
  { id: 'decimal-subtraction', name: 'Subtracting decimals', area: 'number', levels: L('tenths', 'hundredths, different lengths', 'thousandths, borrowing across the point'), examples: ['subtracting decimals'] },
  { id: 'decimal-multiplication', name: 'Multiplying decimals', area: 'number', levels: L('a decimal times a whole number', 'two decimals', 'hundredths times tenths'), examples: ['multiplying decimals'] },
  { id: 'decimal-division', name: 'Dividing decimals', area: 'number', levels: L('a decimal by a whole number', 'by a decimal', 'by hundredths'), examples: ['dividing decimals', 'decimal division'] },
  { id: 'integer-addition', name: 'Adding integers', area: 'number', levels: L('-10 to 10', '-50 to 50', 'three integers'), examples: ['adding integers', 'adding negative numbers'] },
  { id: 'integer-subtraction', name: 'Subtracting integers', area: 'number', levels: L('-10 to 10', 'subtracting negatives', 'three integers'), examples: ['subtracting integers', 'subtracting negative numbers'] },
  { id: 'integer-multiplication', name: 'Multiplying integers', area: 'number', levels: L('-10 to 10', 'two-digit factors', 'three factors'), examples: ['multiplying integers', 'multiplying negative numbers'] },
  { id: 'integer-division', name: 'Dividing integers', area: 'number', levels: L('-10 to 10 quotients', 'two-digit divisors', 'a quotient of products'), examples: ['dividing integers', 'dividing negative numbers'] },
  { id: 'arithmetic', name: 'Order of operations', area: 'number', levels: L('a + b × c', 'adds ÷ and −', 'parentheses, powers, negatives'), examples: ['order of operations', 'PEMDAS'] },
  // Ratios, rates, proportions.
  { id: 'ratios', name: 'Ratios', area: 'ratios', levels: L('simplest form', 'sharing in a ratio', 'three-part ratios'), examples: ['ratios', 'simplifying ratios'] },
  { id: 'rates', name: 'Rates (speed, distance, time)', area: 'ratios', levels: L('distance from speed and time', 'time or speed', 'minutes and hours'), examples: ['rates', 'speed distance time'] },
  { id: 'unit-rates', name: 'Unit rates', area: 'ratios', levels: L('whole-number unit rates', 'unit prices in dollars', 'comparing two offers'), examples: ['unit rates', 'unit price'] },
  { id: 'proportions', name: 'Proportions', area: 'ratios', levels: L('x/a = b/c, whole answers', 'unknown in a denominator', 'an expression in the unknown'), examples: ['proportions', 'solving proportions'] },
  // Percent.
  { id: 'percent-of', name: 'Percent of a number', area: 'percent', levels: L('10, 20, 25, 50, 75 %', 'any multiple of 5 %', 'finding the whole or the percent'), examples: ['percent of a number', 'finding the percent of a number'] },
  { id: 'percent-change', name: 'Percent change', area: 'percent', levels: L('increase or decrease by a percent', 'percent increase or decrease between two values', 'successive changes'), examples: ['percent change', 'percent increase and decrease'] },
  { id: 'simple-interest', name: 'Interest', area: 'percent', levels: L('simple interest', 'total amount with simple interest', 'compound interest, yearly'), examples: ['simple interest', 'compound interest'] },
  { id: 'percent-conversion', name: 'Fractions, decimals and percents', area: 'percent', levels: L('decimal to percent', 'fraction to percent', 'percent to fraction in lowest terms'), examples: ['converting fractions to percentages', 'decimals to percents'] },
  // Exponents, roots, scientific notation.
  { id: 'exponents', name: 'Laws of exponents', area: 'powers', levels: L('product of monomials', 'power of a power', 'quotients, negative exponents'), examples: ['laws of exponents', 'exponent rules'] },
  { id: 'square-roots', name: 'Square and cube roots', area: 'powers', levels: L('perfect squares', 'perfect cubes and square roots of fractions', 'simplifying radicals'), examples: ['square roots', 'simplifying radicals'] },
  { id: 'scientific-notation', name: 'Scientific notation', area: 'powers', levels: L('large numbers', 'small numbers', 'products and quotients'), examples: ['scientific notation'] },
  // Expressions.
  { id: 'simplify-expressions', name: 'Simplifying expressions (like terms)', area: 'expressions', levels: L('one variable', 'with constants and negatives', 'two variables'), examples: ['combining like terms', 'simplifying expressions'] },
  { id: 'expand-expressions', name: 'Expanding (distributive property)', area: 'expressions', levels: L('a(bx + c)', 'negative factors', 'two products, then like terms'), examples: ['distributive property', 'expanding brackets'] },
  { id: 'factor-expressions', name: 'Factoring out a common factor', area: 'expressions', levels: L('numbers', 'negative terms', 'three terms'), examples: ['factoring expressions', 'factoring out a common factor'] },
  { id: 'evaluate-expressions', name: 'Evaluating expressions', area: 'expressions', levels: L('one variable', 'negative values, powers', 'two variables'), examples: ['evaluating expressions', 'substitution into expressions'] },
  // Equations and inequalities.
  { id: 'one-step-equations', name: 'One-step equations', area: 'equations', levels: L('whole numbers', 'negatives', 'fractions and decimals'), examples: ['one-step equations', 'solving one step equations'] },
  { id: 'two-step-equations', name: 'Two-step equations', area: 'equations', levels: L('ax + b = c, whole answers', 'negatives', 'x/a + b = c, fractional answers'), examples: ['two-step equations'] },
  { id: 'multi-step-equations', name: 'Multi-step equations', area: 'equations', levels: L('like terms on one side', 'variables on both sides', 'distributing, fractional answers'), examples: ['multi-step equations', 'equations with variables on both sides'] },
  { id: 'literal-equations', name: 'Literal equations', area: 'equations', levels: L('one operation', 'two operations', 'several terms'), examples: ['literal equations', 'rearranging formulas'] },
  { id: 'inequalities', name: 'Linear inequalities (as an interval)', area: 'equations', levels: L('one step', 'two steps', 'dividing by a negative, both sides'), examples: ['solving inequalities', 'linear inequalities'] },
  // Linear functions.
  { id: 'slope', name: 'Slope from two points', area: 'linear-functions', levels: L('whole-number slopes', 'negative and fractional slopes', 'larger coordinates'), examples: ['slope', 'finding slope from two points'] },
  { id: 'slope-intercept', name: 'Slope-intercept form', area: 'linear-functions', levels: L('from slope and intercept', 'from slope and a point', 'from two points'), examples: ['slope-intercept form', 'y = mx + b'] },
  { id: 'point-slope', name: 'Point-slope form', area: 'linear-functions', levels: L('from slope and a point', 'negative slopes and coordinates', 'from two points'), examples: ['point-slope form'] },
  { id: 'parallel-perpendicular', name: 'Parallel and perpendicular lines', area: 'linear-functions', levels: L('parallel to y = mx + b', 'perpendicular to y = mx + b', 'to a line in standard form'), examples: ['parallel and perpendicular lines', 'perpendicular lines'] },
  // Systems.
  { id: 'systems-substitution', name: 'Systems by substitution', area: 'systems', levels: L('two lines y = mx + b', 'one equation solved for y', 'one solved for x, fractional solutions'), examples: ['systems of equations by substitution', 'substitution method'] },
  { id: 'systems-elimination', name: 'Systems by elimination', area: 'systems', levels: L('opposite coefficients: add', 'one equation multiplied', 'both multiplied'), examples: ['systems of equations by elimination', 'elimination method'] },
  // Polynomials.
  { id: 'polynomial-addition', name: 'Adding polynomials', area: 'polynomials', levels: L('two binomials', 'two trinomials', 'degree 3, missing terms'), examples: ['adding polynomials'] },
  { id: 'polynomial-subtraction', name: 'Subtracting polynomials', area: 'polynomials', levels: L('two binomials', 'two trinomials', 'degree 3, missing terms'), examples: ['subtracting polynomials'] },
  { id: 'polynomial-multiplication', name: 'Multiplying polynomials', area: 'polynomials', levels: L('monomial times binomial', 'two binomials (FOIL)', 'binomial times trinomial'), examples: ['multiplying polynomials', 'multiplying binomials', 'FOIL'] },
  { id: 'factor-gcf', name: 'Factoring out the GCF of a polynomial', area: 'polynomials', levels: L('two terms', 'powers of x in the GCF', 'three terms'), examples: ['factoring out the GCF', 'greatest common factor of polynomials'] },
  { id: 'factor-trinomials', name: 'Factoring trinomials', area: 'polynomials', levels: L('x^2 + bx + c, positive', 'x^2 + bx + c, signs', 'ax^2 + bx + c'), examples: ['factoring trinomials', 'factoring quadratics'] },
  { id: 'difference-of-squares', name: 'Difference of squares', area: 'polynomials', levels: L('x^2 - a^2', '(ax)^2 - b^2', 'with a common factor, or two variables'), examples: ['difference of squares', 'difference of two squares'] },
  // Quadratics.
  { id: 'quadratic-factoring', name: 'Solving quadratics by factoring', area: 'quadratics', levels: L('x^2 + bx + c = 0', 'with a common factor', 'ax^2 + bx + c = 0'), examples: ['solving quadratics by factoring', 'quadratic equations by factoring'] },
  { id: 'quadratic-formula', name: 'The quadratic formula', area: 'quadratics', levels: L('rational roots', 'irrational roots', 'a ≠ 1, irrational roots'), examples: ['quadratic formula', 'solving quadratic equations using the quadratic formula'] },
  { id: 'completing-the-square', name: 'Completing the square', area: 'quadratics', levels: L('vertex form of x^2 + bx + c', 'solving by completing the square', 'vertex form of ax^2 + bx + c'), examples: ['completing the square'] },
  { id: 'discriminant', name: 'The discriminant', area: 'quadratics', levels: L('value, a = 1', 'value, a ≠ 1', 'number of real solutions'), examples: ['the discriminant', 'number of real solutions of a quadratic'] },
  // Geometry with numbers.
  { id: 'perimeter', name: 'Perimeter', area: 'geometry', levels: L('rectangles and squares', 'triangles and regular polygons', 'a missing side from the perimeter'), examples: ['perimeter', 'perimeter of rectangles'] },
  { id: 'area', name: 'Area of polygons', area: 'geometry', levels: L('rectangles and squares', 'triangles and parallelograms', 'trapezoids and composite shapes'), examples: ['area of triangles', 'area of rectangles and parallelograms'] },
  { id: 'volume', name: 'Volume', area: 'geometry', levels: L('cubes and rectangular prisms', 'triangular prisms', 'cylinders, cones and spheres (in terms of π)'), examples: ['volume', 'volume of rectangular prisms'] },
  { id: 'circles', name: 'Circles (circumference and area)', area: 'geometry', levels: L('circumference, in terms of π', 'area, in terms of π', 'radius from the area or circumference'), examples: ['area of a circle', 'circumference of a circle', 'circles'] },
  { id: 'triangle-angles', name: 'Angles in a triangle', area: 'geometry', levels: L('the third angle', 'isosceles and right triangles', 'angles given as expressions in x'), examples: ['angles in a triangle', 'triangle angle sum'] },
  { id: 'polygon-angles', name: 'Angles in polygons', area: 'geometry', levels: L('sum of interior angles', 'each angle of a regular polygon', 'number of sides from an angle'), examples: ['interior angles of polygons', 'exterior angles of polygons'] },
  { id: 'pythagorean-theorem', name: 'The Pythagorean theorem', area: 'geometry', levels: L('hypotenuse, whole numbers', 'a leg', 'exact radical answers'), examples: ['Pythagorean theorem', 'finding the hypotenuse'] },
  { id: 'similar-figures', name: 'Similar figures', area: 'geometry', levels: L('a missing side', 'the scale factor', 'area from the scale factor'), examples: ['similar figures', 'similar triangles'] },
  // Statistics and probability.
  { id: 'mean', name: 'Mean', area: 'statistics', levels: L('whole-number data', 'larger data, decimal means', 'the missing value for a given mean'), examples: ['mean', 'finding the average'] },
  { id: 'median', name: 'Median', area: 'statistics', levels: L('odd number of values', 'even number of values', 'negatives and decimals'), examples: ['median'] },
  { id: 'mode', name: 'Mode', area: 'statistics', levels: L('small data', 'larger data', 'negatives and decimals'), examples: ['mode'] },
  { id: 'range', name: 'Range', area: 'statistics', levels: L('small data', 'larger data', 'negatives and decimals'), examples: ['range of a data set'] },
  { id: 'probability', name: 'Simple probability', area: 'statistics', levels: L('one event', 'complement or either of two outcomes', 'two independent events'), examples: ['simple probability', 'probability'] },
  // Unit conversions.
  { id: 'metric-conversion', name: 'Metric unit conversions', area: 'units', levels: L('one step, whole numbers', 'decimals', 'two steps and square units'), examples: ['metric conversions', 'converting metric units'] },
  { id: 'customary-conversion', name: 'Customary unit conversions', area: 'units', levels: L('one step', 'fractions of a unit', 'two steps'), examples: ['customary unit conversions', 'converting feet to inches'] },
  // Calculus of polynomials (kept from the first engine).
  { id: 'derivatives', name: 'Derivatives of polynomials', area: 'calculus', levels: L('degree 2-3', 'degree 3-4', 'degree 4-5, fractions, product rule'), examples: ['derivatives of polynomials', 'power rule'] },
  { id: 'integrals', name: 'Integrals of polynomials', area: 'calculus', levels: L('indefinite, degree 2-3', 'indefinite, degree 3-4', 'definite integrals'), examples: ['integrals of polynomials', 'antiderivatives'] },
];

const BY_ID = new Map(CATALOGUE.map((t) => [t.id, t]));

export function subTopic(id: string): SubTopicInfo {
  const t = BY_ID.get(id);
  if (!t) throw new Error(`no sub-topic ${id}`);
  return t;
}

export function subTopicsOf(area: string): string[] {
  return CATALOGUE.filter((t) => t.area === area).map((t) => t.id);
}
