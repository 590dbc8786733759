import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@pawhaven/testing';

/** /api/reference: the OpenAPI document as a page to read, rendered by Swagger UI; the JSON stays at /api/docs. */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.stop();
});

const directives = (policy: string | null) =>
  Object.fromEntries(
    (policy ?? '').split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );

describe('GET /api/reference', () => {
  it("is a page that loads Swagger UI on /api/docs, under the app's policy plus data: pictures", async () => {
    const res = await fetch(`${t.url}/api/reference`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<title>PawHaven API reference</title>');
    expect(html).toContain('<script src="/api/reference/swagger-ui-bundle.js"></script>');
    expect(html).toContain('href="/api/docs"');
    const nonce = /<style nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeTruthy();

    const page = directives(res.headers.get('content-security-policy'));
    const app = directives((await fetch(`${t.url}/api/config`)).headers.get('content-security-policy'));
    expect(page['style-src-elem']).toContain(`'nonce-${nonce}'`);
    expect(page['img-src']).toEqual(['data:', ...app['img-src']!]);
    // Only pictures differ: scripts, styles and everything else as tight as on every page.
    const rest = (d: Record<string, string[]>) =>
      Object.entries(d)
        .filter(([name]) => !['img-src', 'style-src-elem', 'style-src'].includes(name!))
        .sort();
    expect(rest(page)).toEqual(rest(app));
    expect(page['script-src']).toEqual(app['script-src']);
  });

  it('serves its script and stylesheet compressed and cached, the start script on /api/docs, and nothing else', async () => {
    const bundle = await fetch(`${t.url}/api/reference/swagger-ui-bundle.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.headers.get('content-encoding')).toBe('gzip');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await bundle.text()).length).toBeGreaterThan(100_000);

    const css = await fetch(`${t.url}/api/reference/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);

    const start = await fetch(`${t.url}/api/reference/start.js`);
    expect(start.status).toBe(200);
    expect(await start.text()).toContain("url: '/api/docs'");

    for (const name of ['index.html', 'package.json', '__proto__', 'constructor', '..%2Fpackage.json']) {
      const res = await t.api.get(`/api/reference/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.message, name).toBe('No such file');
    }
  });
});
