/** The document's own endpoint (routes.ts serves it, with the /docs page). */
import * as z from 'zod';
import { endpoints } from '../http/endpoint.ts';

export const openApiEndpoints = endpoints('Operations', {
  document: {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'openapi',
    summary: 'This document (no key needed)',
    auth: 'none',
    success: { status: 200, description: 'the OpenAPI 3.1 document', schema: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }) },
    errors: [],
  },
});
