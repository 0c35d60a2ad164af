/**
 * Every answer the API suites receive through the test client (test/helpers/server.ts) is checked
 * against the OpenAPI document the service publishes: its status must be one the operation
 * documents, a JSON body must match the documented schema (answers are generated with
 * `additionalProperties: false`, so a field added or renamed without its schema fails too), a
 * non-JSON answer must have the documented media type, and 405 / 429 must carry Allow /
 * Retry-After. A mismatch fails the test that saw it, so the description cannot drift from the
 * service. Paths the document does not describe (unknown paths, the web app) are not checked.
 */
import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ENDPOINTS } from '../../server/endpoints.ts';
import { buildDocument } from '../../server/openapi/document.ts';

type Json = Record<string, any>;

interface CompiledOperation {
  /** Compiled on first use: most suites see a few operations, and compiling costs. */
  responses: Map<string, { contentType: string; validate?: () => ValidateFunction }>;
}

interface CompiledPath {
  template: string;
  pattern: RegExp;
  params: number;
  operations: Map<string, CompiledOperation>;
}

// CommonJS default export seen from ESM.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as unknown as typeof Ajv2020Module.default;

const DOC_ID = 'https://study-content-service.local/openapi.json';

let compiled: { doc: Json; paths: CompiledPath[]; anyError: ValidateFunction } | undefined;

/** `#/components/...` references pointed at the registered components document. */
function refsToDoc(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(refsToDoc);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/') ? `${DOC_ID}${v}` : refsToDoc(v);
  return out;
}

function compile() {
  if (compiled) return compiled;
  const doc = buildDocument(ENDPOINTS);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  const formats = ((addFormats as unknown as { default?: unknown }).default ?? addFormats) as (a: unknown) => void;
  formats(ajv);
  // Only the shared components are a schema of their own; each answer's schema refers to them.
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const paths: CompiledPath[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const operations = new Map<string, CompiledOperation>();
    for (const [method, op] of Object.entries(item as Json)) {
      const responses = new Map<string, { contentType: string; validate?: () => ValidateFunction }>();
      for (const [status, r] of Object.entries((op as Json).responses as Json)) {
        const [contentType] = Object.keys((r as Json).content ?? {});
        let fn: ValidateFunction | undefined;
        const schema = (r as Json).content?.['application/json']?.schema;
        const validate = contentType === 'application/json' ? () => (fn ??= ajv.compile(refsToDoc(schema))) : undefined;
        responses.set(status, { contentType: contentType ?? '', validate });
      }
      operations.set(method.toUpperCase(), { responses });
    }
    const params = (template.match(/\{[^}]+\}/g) ?? []).length;
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}/?$`);
    paths.push({ template, pattern, params, operations });
  }
  // Static segments win over parameters, as the service's routes do (`/flashcards/list` is not a deck).
  paths.sort((a, b) => a.params - b.params);
  const anyError = ajv.compile({ anyOf: [refsToDoc((doc.components as Json).schemas.Error), refsToDoc((doc.components as Json).schemas.ValidationError)] });
  compiled = { doc, paths, anyError };
  return compiled;
}

export class OpenApiMismatch extends Error {
  override readonly name = 'OpenApiMismatch';
}

function describeErrors(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`)
    .join('; ');
}

/**
 * Throws OpenApiMismatch when an answer to `method path` does not match the document. `body` is
 * the parsed JSON, or the text when the answer was not JSON.
 */
export function assertDocumented(method: string, urlPath: string, status: number, headers: Headers, body: unknown): void {
  if (method === 'HEAD' || method === 'OPTIONS') return;
  const { paths, anyError } = compile();
  const pathname = urlPath.split('?')[0]!.split('#')[0]!;
  const found = paths.find((p) => p.pattern.test(pathname));
  if (!found) return;
  const where = `${method} ${pathname} (${found.template}) answered ${status}`;
  const op = found.operations.get(method);
  if (!op) {
    // A documented path with a method it does not have: 405 (or refused before routing: 401, 429, 413...).
    if (status < 400) throw new OpenApiMismatch(`${where}: the method is not documented for this path`);
    if (!anyError(body)) throw new OpenApiMismatch(`${where}: not an error shape of the document: ${describeErrors(anyError)}`);
    if (status === 405 && !headers.get('allow')) throw new OpenApiMismatch(`${where}: 405 without Allow`);
    return;
  }
  const r = op.responses.get(String(status));
  if (!r) throw new OpenApiMismatch(`${where}: status not documented (documented: ${[...op.responses.keys()].join(', ')}); body ${JSON.stringify(body)?.slice(0, 300)}`);
  const type = headers.get('content-type') ?? '';
  if (r.validate) {
    if (!type.startsWith('application/json')) throw new OpenApiMismatch(`${where}: content-type ${type}, documented application/json`);
    const validate = r.validate();
    if (!validate(body)) throw new OpenApiMismatch(`${where}: body does not match the document: ${describeErrors(validate)}; body ${JSON.stringify(body)?.slice(0, 300)}`);
  } else if (r.contentType && !type.startsWith(r.contentType.split(';')[0]!)) {
    throw new OpenApiMismatch(`${where}: content-type ${type}, documented ${r.contentType}`);
  }
  if (status === 429 && !headers.get('retry-after')) throw new OpenApiMismatch(`${where}: 429 without Retry-After`);
  if (status === 405 && !headers.get('allow')) throw new OpenApiMismatch(`${where}: 405 without Allow`);
}

/** Operations of the document, as `METHOD /path` (for the document's own test). */
export function documentedOperations(): string[] {
  return compile().paths.flatMap((p) => [...p.operations.keys()].map((m) => `${m} ${p.template}`));
}
