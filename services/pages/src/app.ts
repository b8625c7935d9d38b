import Koa from 'koa';
import serveStatic from 'koa-static';
import { fileURLToPath } from 'node:url';

export interface PagesConfig {
  /** The folder of built pages. */
  root: string;
}

export const defaultPagesRoot = fileURLToPath(new URL('../public', import.meta.url));

/** Serves the demonstration pages as static files. */
export function createApp(config: PagesConfig): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(serveStatic(config.root, { index: 'index.html', maxage: 0 }));
  return app;
}
