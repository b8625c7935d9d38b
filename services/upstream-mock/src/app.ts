import Koa from 'koa';

export interface UpstreamConfig {
  apiKey: string;
}

/** Placeholder until the proxy issue: the third party behind /api/upstream/. */
export function createApp(_config: UpstreamConfig): Koa {
  const app = new Koa();
  app.silent = true;
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'not yet' };
  });
  return app;
}
