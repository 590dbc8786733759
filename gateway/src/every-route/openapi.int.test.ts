import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@pawhaven/query-api';
import { startTestApp, type TestApp } from '@pawhaven/testing';

/** Issue 6 point 11: /api/docs lists exactly the routes the gateway serves, each with its zod-derived schemas. */
describe('the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('documents every registered route and nothing that is not served', () => {
    const served = new Set(t.app.routes.map((r) => `${r.method} ${r.path}`));
    const documented = new Set(Object.keys(operations));
    expect(
      [...served].filter((r) => !documented.has(r)),
      'served but not documented',
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !served.has(r)),
      'documented but not served',
    ).toEqual([]);
  });

  it('serves the document at /api/docs with request schemas taken from the validators', async () => {
    const res = await t.api.get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = res.body.paths;
    expect(Object.keys(paths).length).toBeGreaterThanOrEqual(30);
    const register = paths['/api/auth/register'].post.requestBody.content['application/json'].schema;
    expect(register.required).toEqual(expect.arrayContaining(['username', 'email', 'password']));
    const publish = paths['/api/adoptions'].post.requestBody.content['multipart/form-data'].schema;
    expect(publish.required).toEqual(expect.arrayContaining(['name', 'age', 'location', 'petType', 'image']));
    expect(publish.properties.petType.enum).toContain('Dog');
    const list = paths['/api/adoptions'].get.parameters.map((p: { name?: string }) => p.name);
    expect(list).toEqual(expect.arrayContaining(['filter', 'city', 'q', 'page', 'limit']));
    expect(paths['/api/adoptions/{id}'].put.security).toEqual([{ bearer: [] }]);
    // Grouped by part of the product for the reference page (/api/reference): every operation in a declared group.
    const groups = res.body.tags.map((tag: { name: string }) => tag.name);
    for (const [path, methods] of Object.entries(paths))
      for (const [method, op] of Object.entries(methods as Record<string, { tags: string[] }>))
        expect(groups, `${method} ${path}`).toEqual(expect.arrayContaining(op.tags));
    expect(paths['/api/adoptions'].get.tags).toEqual(['Adoption']);
    expect(paths['/api/auth/signin'].post.tags).toEqual(['Accounts']);
    expect(paths['/api/health'].get.tags).toEqual(['System']);
  });
});
