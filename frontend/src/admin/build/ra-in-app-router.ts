import type { Plugin } from 'vite';

/**
 * A build step for the dashboard's sake that keeps react-admin's unused router code out of the community pages' bundle.
 *
 * react-admin's router adapter (ra-core `reactRouterProvider`) can create its own hash router when it is not
 * rendered inside one. Ours always is (the app's BrowserRouter, route /admin-dashboard/*), so that branch never
 * runs; but it references react-router's data router (`createHashRouter`, `RouterProvider`), and react-router is
 * one module shared with the initial bundle, so tree-shaking kept ~56 KB minified (~15 KB gzipped) of it in the
 * public pages' entry, over the 200 KB budget. This replaces the unused branch with an explicit error.
 *
 * Use in vite.config.ts: `plugins: [react(), raInAppRouter()]`.
 */
const ADAPTER = /ra-core[\\/]dist[\\/]routing[\\/]adapters[\\/]reactRouterProvider\.js$/;
const IMPORTS = 'createHashRouter, RouterProvider as ReactRouterProvider,';
const INTERNAL_ROUTER = /const InternalRouter = [\s\S]*?\n};\n/;

export function raInAppRouter(): Plugin {
  return {
    name: 'pawhaven:ra-in-app-router',
    enforce: 'pre',
    transform(code, id) {
      if (!ADAPTER.test(id)) return null;
      if (!code.includes(IMPORTS) || !INTERNAL_ROUTER.test(code)) {
        // A react-admin upgrade changed the adapter: build as is (the bundle-size test will tell).
        this.warn('ra-in-app-router: react-admin router adapter not recognised, left unchanged');
        return null;
      }
      return {
        code: code
          .replace(IMPORTS, '')
          .replace(
            INTERNAL_ROUTER,
            "const InternalRouter = () => { throw new Error('The admin dashboard renders inside the app router'); };\n",
          ),
        map: null,
      };
    },
  };
}
