/**
 * The endpoint catalog: every operation of the specification by its metering name (method and
 * path without /v1, path parameters named as in the specification's tables), and a matcher from a
 * request's method and path to that name. Operations that have no route yet are listed too, so
 * their limits and prices apply the moment they land.
 */
export const ENDPOINTS = [
  'PUT /journals/editor/create',
  'GET /journals/list',
  'GET /journals/content/{id}',
  'PATCH /journals/editor/rename',
  'DELETE /journals/editor/delete/{journal_id}',
  'PUT /journals/editor/import_from_markdown',
  'PATCH /journals/editor/edit',
  'GET /journals/editor/model/{journal_id}',
  'GET /journals/realtime/{journal_id}',
  'POST /interactives/practice/create',
  'GET /interactives/practice/status/{set_id}',
  'POST /interactives/practice/grade',
  'POST /interactives/flashcards/create',
  'POST /video/create',
  'GET /video/status/{video_id}',
  'GET /usage',
] as const;

export type KnownEndpoint = (typeof ENDPOINTS)[number];
/** Requests under /v1 that match no catalog entry (they end as 404) share this bucket. */
export const OTHER_ENDPOINT = 'OTHER';
export type EndpointKey = KnownEndpoint | typeof OTHER_ENDPOINT;

/**
 * Every catalog path is either static or a static prefix plus one trailing parameter, so a match
 * is a string comparison; no splitting or allocation on the request path.
 */
interface Pattern {
  key: KnownEndpoint;
  /** The whole path (static) or everything before the parameter, lower-cased. */
  prefix: string;
  param: boolean;
}

const byMethod = new Map<string, Pattern[]>();
const byName = new Map<string, KnownEndpoint>();

/** `GET /journals/content/{id}` and `GET /journals/content/{journal_id}` name the same endpoint. */
function shape(name: string): string {
  return name.trim().replace(/\s+/, ' ').replace(/\{[^}]*\}/g, '{}').toLowerCase();
}

for (const key of ENDPOINTS) {
  const [method, path] = key.split(' ') as [string, string];
  const brace = path.indexOf('{');
  if (brace !== -1 && !path.endsWith('}')) throw new Error(`catalog paths end with their only parameter: ${key}`);
  let list = byMethod.get(method);
  if (!list) byMethod.set(method, (list = []));
  list.push({ key, prefix: (brace === -1 ? path : path.slice(0, brace)).toLowerCase(), param: brace !== -1 });
  byName.set(shape(key), key);
}

/** The catalog name of an endpoint given in any parameter spelling, or undefined. */
export function endpointByName(name: string): KnownEndpoint | undefined {
  return byName.get(shape(name));
}

/**
 * Metering name of a request. `path` is relative to /v1 (Express's req.path inside the router).
 * Matching follows Express's defaults: case-insensitive, an optional trailing slash.
 */
export function matchEndpoint(method: string, path: string): EndpointKey {
  const candidates = byMethod.get(method === 'HEAD' ? 'GET' : method);
  if (!candidates) return OTHER_ENDPOINT;
  const found = matchIn(candidates, path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path);
  // Paths are lower-case in practice; other spellings pay for a lower-cased retry.
  return found ?? matchIn(candidates, path.toLowerCase().replace(/(.)\/$/, '$1')) ?? OTHER_ENDPOINT;
}

function matchIn(candidates: Pattern[], path: string): KnownEndpoint | undefined {
  for (const p of candidates) {
    if (!p.param) {
      if (path === p.prefix) return p.key;
    } else if (path.length > p.prefix.length && path.startsWith(p.prefix) && path.indexOf('/', p.prefix.length) === -1) {
      return p.key;
    }
  }
  return undefined;
}
