/** The key management endpoints (docs/keys.md; admin keys only), each declared once; routes.ts serves them. */
import { meteredEndpoints } from '../billing/endpoints.ts';
import { read } from '../billing/prices.ts';
import { createKeyBody, keyCreateResponseSchema, keyListQuery, keyListResponseSchema, keyRevokeResponseSchema } from './schema.ts';

export const keyEndpoints = meteredEndpoints('Organization', {
  list: {
    method: 'get',
    path: '/v1/keys',
    operationId: 'listKeys',
    summary: "The organization's keys, newest first, paged (admin keys only; never the secrets)",
    query: keyListQuery,
    success: { status: 200, description: 'a page', schema: keyListResponseSchema },
    errors: [403, 422],
    price: read(0),
  },
  create: {
    method: 'post',
    path: '/v1/keys',
    operationId: 'createKey',
    summary: 'Create a key of the organization (admin keys only); the secret is shown once',
    body: createKeyBody,
    example: { name: 'CI pipeline', role: 'member' },
    success: { status: 201, description: 'created', schema: keyCreateResponseSchema },
    errors: [403, 413, 415, 422],
    price: { base: 0, billing: 'request' },
  },
  revoke: {
    method: 'delete',
    path: '/v1/keys/{key_id}',
    operationId: 'revokeKey',
    summary: "Revoke a key (admin keys only): refused at once, its editor connections closed; 409 for the organization's last admin key",
    params: { key_id: 'the key id' },
    success: { status: 200, description: 'revoked', schema: keyRevokeResponseSchema },
    errors: [403, 404, 409],
    price: { base: 0, billing: 'request' },
  },
});
