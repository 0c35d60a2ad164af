// Build-time stand-in for iconv-lite (scripts/build-server.mjs): body-parser and raw-body
// require it when express loads, but use it only to decode a body sent in another charset than
// UTF-8. The real module, with its code-page tables, is loaded from node_modules on first use.
let real;
// A name esbuild does not resolve at build time: Node resolves it at run time, from node_modules.
const REAL = ['iconv-lite', 'lib', 'index.js'].join('/');
const load = () => (real ??= require(REAL));
module.exports = new Proxy({}, { get: (_, name) => load()[name] });
