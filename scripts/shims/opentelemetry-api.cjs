// Build-time stand-in for @opentelemetry/api (scripts/build-server.mjs): prom-client requires it
// at load but reads it only when exemplars are enabled, which this service does not do. The real
// module loads from node_modules on first use.
let real;
// A name esbuild does not resolve at build time: Node resolves it at run time, from node_modules.
const REAL = ['@opentelemetry', 'api'].join('/');
const load = () => (real ??= require(REAL));
module.exports = new Proxy({}, { get: (_, name) => load()[name] });
