/**
 * The OpenAPI 3.1 document, generated from the endpoints' declarations (server/endpoints.ts
 * hands them over) and the zod schemas they point at, with zod 4's own JSON Schema output
 * (draft 2020-12, the dialect of OpenAPI 3.1): request bodies and queries as the client sends
 * them (`io: 'input'`: defaults optional), answers as the service sends them (`io: 'output'`).
 */
import { z } from 'zod';
import { MAX_BODY_BYTES_DOC, PAGE_DOC } from './constants.ts';
import { documentedShape } from '../http/documented.ts';
import { KEY_PATTERN, MAX_KEY_LENGTH } from '../http/idempotency.ts';
import type { Endpoint, ErrorStatus } from '../http/endpoint.ts';
import { conflictSchema, errorSchema, insufficientCreditSchema, internalErrorSchema, rateLimitedSchema, validationErrorSchema } from '../http/error-schemas.ts';

type JsonSchema = Record<string, unknown>;

/** A zod schema as an OpenAPI 3.1 schema object (no `$schema`; nested `$defs` kept local). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const shape = documentedShape(ctx.zodSchema as unknown as z.ZodType);
      if (!shape) return;
      for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[k];
      const { $schema: _drop, ...rest } = z.toJSONSchema(shape, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
      Object.assign(ctx.jsonSchema, rest);
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const ERROR_COMPONENTS: Record<string, z.ZodType> = {
  Error: errorSchema,
  ValidationError: validationErrorSchema,
  RateLimited: rateLimitedSchema,
  InsufficientCredit: insufficientCreditSchema,
  Conflict: conflictSchema,
  InternalError: internalErrorSchema,
};

const RATE_HEADERS = {
  'RateLimit-Policy': {
    description: 'the tightest window of the endpoint: `"minute";q=10;w=60` (IETF httpapi ratelimit-headers draft)',
    schema: { type: 'string' },
  },
  RateLimit: { description: 'requests left and seconds to the reset of that window: `"minute";r=7;t=42`', schema: { type: 'string' } },
};

const json = (schema: JsonSchema, example?: unknown) => ({ 'application/json': { schema, ...(example !== undefined ? { example } : {}) } });

/** What each error status answers, word for word as the service says it (the component's own example is a 404's). */
const ERROR_EXAMPLES: Record<number, unknown> = {
  401: { error: 'Invalid or revoked API key' },
  403: { error: "Forbidden: only an admin key manages the organization's keys; this key's role is member" },
  404: { error: 'Journal not found' },
  405: { error: 'Method DELETE not allowed on /v1/journals/list; allowed: GET' },
  410: { error: 'The file of this video is no longer stored' },
  413: { error: 'Request body too large: the limit is 2097152 bytes' },
  415: { error: 'Missing Content-Type: request bodies must be JSON, sent with Content-Type: application/json' },
  500: { error: 'Internal server error', request_id: '6f1c2a9e-…' },
  502: { error: 'The LLM provider failed; the offline grader cannot take over: …' },
  503: { error: 'Storage temporarily unavailable; retry', request_id: '6f1c2a9e-…' },
};

/** The answers every /v1 operation can give, besides its own. */
function errorResponse(status: number | ErrorStatus): JsonSchema {
  switch (status) {
    case 401:
      return {
        description: 'missing, malformed, unknown or revoked key',
        headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
        content: json(ref('Error'), ERROR_EXAMPLES[401]),
      };
    case 402:
      return { description: 'the credit balance does not cover the price (nothing was done)', headers: RATE_HEADERS, content: json(ref('InsufficientCredit')) };
    case 403:
      return { description: "the key's role may not do this (key management needs an admin key)", content: json(ref('Error'), ERROR_EXAMPLES[403]) };
    case 404:
      return { description: 'unknown id, or one of another key (or organization)', content: json(ref('Error'), ERROR_EXAMPLES[404]) };
    case 405:
      return { description: 'a known path with another method', headers: { Allow: { schema: { type: 'string' } } }, content: json(ref('Error'), ERROR_EXAMPLES[405]) };
    case 409:
      return { description: 'conflict with the current state (see the operation)', content: json(ref('Conflict')) };
    case 410:
      return { description: 'the file is no longer stored', content: json(ref('Error'), ERROR_EXAMPLES[410]) };
    case 413:
      return { description: `request body over ${MAX_BODY_BYTES_DOC}`, content: json(ref('Error'), ERROR_EXAMPLES[413]) };
    case 415:
      return { description: 'a body sent without Content-Type: application/json (nothing done, nothing charged)', content: json(ref('Error'), ERROR_EXAMPLES[415]) };
    case 422:
      return { description: 'invalid input, malformed JSON (FastAPI-style detail)', content: json(ref('ValidationError')) };
    case 429:
      return {
        description: "a rate limit is exceeded, or the key's flood guard",
        headers: { 'Retry-After': { description: 'seconds until the window resets', schema: { type: 'integer' } }, ...RATE_HEADERS },
        content: json(ref('RateLimited')),
      };
    case 502:
      return { description: 'the LLM provider failed and the offline engine could not take over (both reasons given)', content: json(ref('Error'), ERROR_EXAMPLES[502]) };
    case 500:
      return { description: 'a bug (details only in the log)', content: json(ref('InternalError'), ERROR_EXAMPLES[500]) };
    case 503:
      return { description: 'storage temporarily unavailable; retry', headers: { 'Retry-After': { schema: { type: 'integer' } } }, content: json(ref('InternalError'), ERROR_EXAMPLES[503]) };
    default:
      throw new Error(`no error response for ${status}`);
  }
}

const COMMON_V1_ERRORS = [401, 405, 429, 500, 503];

function operationObject(op: Endpoint): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const [name, description] of Object.entries(op.params ?? {})) {
    parameters.push({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } });
  }
  if (op.query) {
    const q = jsonSchemaOf(op.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: q.required?.includes(name) ?? false, ...(description ? { description } : {}), schema: rest });
    }
  }
  if (op.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'the same key and body replay the first answer without a second charge (24 h); another body is a 422. 1-255 visible ASCII characters (no spaces)',
      schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: KEY_PATTERN },
    });
  }
  const responses: Record<string, JsonSchema> = {};
  const s = op.success;
  responses[String(s.status)] = {
    description: s.description,
    ...(op.auth === 'key' ? { headers: RATE_HEADERS } : {}),
    content: s.schema ? json(jsonSchemaOf(s.schema, 'output')) : { [s.contentType!]: { schema: { type: 'string' } } },
  };
  for (const [status, r] of Object.entries(op.extra ?? {})) {
    responses[status] = { description: r.description, content: r.schema ? json(jsonSchemaOf(r.schema, 'output')) : { [r.contentType!]: { schema: { type: 'string' } } } };
  }
  const errors = op.auth === 'key' ? [...new Set([...op.errors, ...COMMON_V1_ERRORS])] : op.auth === 'metrics' ? [401] : [...op.errors];
  for (const status of errors.sort((a, b) => a - b)) {
    responses[String(status)] =
      status === 401 && op.auth === 'metrics' ? { description: 'METRICS_TOKEN is set and the bearer token is not it', content: json(ref('Error')) } : errorResponse(status);
  }
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.auth === 'key' ? { security: [{ apiKey: [] }] } : op.auth === 'metrics' ? { security: [{}, { metricsToken: [] }] } : { security: [] }),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(op.body, 'input'), ...(op.example !== undefined ? { example: op.example } : {}) } } } }
      : {}),
    responses,
  };
}

/** The document of `endpoints`: every one but the WebSocket upgrades. */
export function buildDocument(endpoints: readonly Endpoint[], opts: { serverUrl?: string; version?: string } = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of endpoints) if (!op.upgrade) (paths[op.path] ??= {})[op.method] = operationObject(op);
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(ERROR_COMPONENTS)) schemas[name] = jsonSchemaOf(schema, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Study Content Service',
      version: opts.version ?? '0.1.0',
      description: [
        'Collaborative study journals (Yjs) over REST and WebSocket, markdown import and export, practice sets, videos and flashcards.',
        'Every `/v1` request carries `Authorization: Bearer <API key>`; every request body is JSON sent with `Content-Type: application/json`, at most 2 MiB, nested at most 64 levels, and its strings and keys are valid Unicode (no lone UTF-16 surrogates); otherwise 413 or 422.',
        `Errors: \`422 {detail:[{loc,msg,type}]}\` for invalid input, \`{error}\` for the rest. ${PAGE_DOC}`,
        'Key management (`/v1/keys`) needs an admin key. Docs: README.md and docs/ of the repository.',
      ].join('\n\n'),
    },
    ...(opts.serverUrl !== undefined ? { servers: [{ url: opts.serverUrl, description: 'this service' }] } : {}),
    tags: ['Journals', 'Versions', 'Realtime', 'Practice', 'Flashcards', 'Videos', 'Organization', 'Operations'].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'an API key, `sk_study_…` (first start prints one; admin keys create more)' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when the service sets one' },
      },
    },
  };
}

const built = new WeakMap<readonly Endpoint[], JsonSchema>();

/**
 * The document as served, built once per process. No `servers`: OpenAPI's default is the origin
 * that served the document, so the /docs playground sends its requests to this service, wherever
 * it runs.
 */
export function openApiDocument(endpoints: readonly Endpoint[]): JsonSchema {
  let doc = built.get(endpoints);
  if (!doc) built.set(endpoints, (doc = buildDocument(endpoints)));
  return doc;
}
