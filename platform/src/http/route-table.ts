import type { Express } from 'express';

export type RouteEntry = { method: string; path: string };

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string | string[];
};

const join = (prefix: string, path: string) => `${prefix}${path === '/' && prefix ? '' : path}` || '/';

/**
 * Every route an Express app answers, read from its router stack (nested routers included), with Express-style
 * paths ('/api/adoptions/:id'). Tests walk it so that a new endpoint is covered by the fuzz and OpenAPI checks
 * the moment it is registered.
 */
export function listRoutes(app: Express): RouteEntry[] {
  const out: RouteEntry[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths)
          for (const [method, on] of Object.entries(layer.route.methods))
            if (on && method !== '_all') out.push({ method: method.toUpperCase(), path: join(prefix, p) });
      } else if (layer.handle?.stack) {
        const mount = Array.isArray(layer.rawPath) ? layer.rawPath[0] : layer.rawPath;
        walk(layer.handle.stack, prefix + (mount && mount !== '/' ? mount : ''));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return out;
}
