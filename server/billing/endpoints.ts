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
  // Listing and deleting what a key created (issue 16). A static path comes before a parameter
  // path with the same prefix, which would otherwise take it ("list" as a deck id).
  'GET /interactives/practice/list',
  'DELETE /interactives/practice/delete/{set_id}',
  'GET /video/list',
  'DELETE /video/delete/{video_id}',
  'GET /interactives/flashcards/list',
  'GET /interactives/flashcards/{deck_id}',
  'DELETE /interactives/flashcards/delete/{deck_id}',
  // The trash (docs/trash.md).
  'GET /journals/trash',
  'POST /journals/editor/restore/{journal_id}',
  // Version history (docs/versions.md). Static segments after a parameter come first.
  'POST /journals/versions/{journal_id}',
  'GET /journals/versions/{journal_id}',
  'GET /journals/versions/{journal_id}/diff',
  'GET /journals/versions/{journal_id}/{version_id}',
  'POST /journals/versions/{journal_id}/{version_id}/restore',
  // Key management by admin keys (docs/keys.md).
  'GET /keys',
  'POST /keys',
  'DELETE /keys/{key_id}',
] as const;

export type KnownEndpoint = (typeof ENDPOINTS)[number];
/** Requests under /v1 that match no catalog entry (they end as 404) share this bucket. */
export const OTHER_ENDPOINT = 'OTHER';
export type EndpointKey = KnownEndpoint | typeof OTHER_ENDPOINT;

/**
 * Most catalog paths are static or a static prefix plus one trailing parameter, matched by string
 * comparison with no splitting or allocation on the request path; the others (several
 * parameters, or segments after one) are matched segment by segment.
 */
interface Pattern {
  key: KnownEndpoint;
  /** The whole path (static) or everything before the parameter, lower-cased. */
  prefix: string;
  param: boolean;
  /** For the other paths: each segment, null for a parameter (one non-empty segment). */
  segments?: (string | null)[];
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
  let list = byMethod.get(method);
  if (!list) byMethod.set(method, (list = []));
  const simple = brace === -1 || (path.endsWith('}') && path.indexOf('{', brace + 1) === -1 && !path.slice(brace).includes('/'));
  list.push({
    key,
    prefix: (brace === -1 ? path : path.slice(0, brace)).toLowerCase(),
    param: brace !== -1,
    ...(simple ? {} : { segments: path.toLowerCase().split('/').map((seg) => (seg.startsWith('{') ? null : seg)) }),
  });
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

function matchSegments(segments: readonly (string | null)[], path: string): boolean {
  const parts = path.split('/');
  return parts.length === segments.length && segments.every((seg, i) => (seg === null ? parts[i]!.length > 0 : parts[i] === seg));
}

function matchIn(candidates: Pattern[], path: string): KnownEndpoint | undefined {
  for (const p of candidates) {
    if (p.segments) {
      if (path.startsWith(p.prefix) && matchSegments(p.segments, path)) return p.key;
    } else if (!p.param) {
      if (path === p.prefix) return p.key;
    } else if (path.length > p.prefix.length && path.startsWith(p.prefix) && path.indexOf('/', p.prefix.length) === -1) {
      return p.key;
    }
  }
  return undefined;
}
