import { describe, expect, it } from 'vitest';
import { apiRouteOf } from './apiRouteOf.js';

describe('apiRouteOf', () => {
  it('names the route pattern of a method and path, its query left out', () => {
    expect(apiRouteOf('GET', '/api/v1/runs?limit=5')).toBe('/api/v1/runs');
    expect(apiRouteOf('get', '/api/v1/runs/r-42')).toBe('/api/v1/runs/:runId');
    expect(apiRouteOf('GET', '/api/v1/runs/r-42/content')).toBe('/api/v1/runs/:runId/content');
    expect(apiRouteOf('POST', '/api/v1/admin/projects/shop/keys')).toBe('/api/v1/admin/projects/:projectId/keys');
  });

  it('prefers a route without parameters to one whose parameter would take the same segment', () => {
    expect(apiRouteOf('GET', '/api/v1/alerts/rules')).toBe('/api/v1/alerts/rules');
  });

  it('names none for a path or method the API does not have', () => {
    expect(apiRouteOf('GET', '/api/v1/no-such-route')).toBeUndefined();
    expect(apiRouteOf('DELETE', '/api/v1/runs')).toBeUndefined();
    expect(apiRouteOf('GET', '/runs')).toBeUndefined();
    expect(apiRouteOf(undefined, '/api/v1/runs')).toBeUndefined();
  });
});
