/**
 * Every endpoint of the service, as each domain declares it, in the order of the OpenAPI
 * document: what app.ts mounts (each domain's routes.ts serves its own), what billing meters
 * (the catalog of names, prices and limits), and what server/openapi describes.
 */
import { EndpointCatalog } from './billing/endpoints.ts';
import { billingEndpoints } from './billing/usage-schema.ts';
import { flashcardEndpoints } from './flashcards/endpoints.ts';
import type { Endpoint } from './http/endpoint.ts';
import { commentEndpoints } from './journals/comments/endpoints.ts';
import { journalEndpoints } from './journals/endpoints.ts';
import { nestingEndpoints } from './journals/nesting/endpoints.ts';
import { publishEndpoints } from './journals/publish/endpoints.ts';
import { versionEndpoints } from './journals/versions/endpoints.ts';
import { keyEndpoints } from './keys/endpoints.ts';
import { openApiEndpoints } from './openapi/endpoints.ts';
import { opsEndpoints } from './ops/endpoints.ts';
import { practiceEndpoints } from './practice/endpoints.ts';
import { realtimeEndpoints } from './realtime/endpoints.ts';
import { videoEndpoints } from './video/endpoints.ts';

export const ENDPOINTS: readonly Endpoint[] = [
  opsEndpoints,
  openApiEndpoints,
  journalEndpoints,
  realtimeEndpoints,
  versionEndpoints,
  commentEndpoints,
  publishEndpoints,
  nestingEndpoints,
  practiceEndpoints,
  flashcardEndpoints,
  videoEndpoints,
  billingEndpoints,
  keyEndpoints,
].flatMap((group) => Object.values(group));

/** The metered endpoints (those of /v1): names, prices, limit classes, and the request matcher. */
export const ENDPOINT_CATALOG = new EndpointCatalog(ENDPOINTS);
