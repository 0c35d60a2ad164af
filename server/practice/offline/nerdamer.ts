/**
 * nerdamer-prime with the add-ons the generators call: Algebra (coeffs), Calculus (diff,
 * integrate) and Solve (solveEquations). Its main entry differs by condition: `import` gets a
 * bundle of every add-on, `require` the core alone, so the CommonJS build of the server had no
 * solveEquations and left diff() unevaluated. These subpaths name one file under every
 * condition, so the source run and the build load the same code.
 */
import nerdamer from 'nerdamer-prime/nerdamer.core';
import 'nerdamer-prime/Algebra';
import 'nerdamer-prime/Calculus';
import 'nerdamer-prime/Solve';

export default nerdamer;
