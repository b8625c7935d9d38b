import {
  ConfigError,
  envString,
  listenSettings,
  readSettings,
  setting,
  thirdSiteSetting,
  type Env,
  type ValuesOf,
} from '@origin-lab/server-kit';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SITE_PAIRS, parseSitePairs } from './site-pairs.js';
import { studentOriginsFromEnv } from './student-origins.js';

/** The build writes the pages beside the compiled server, in dist/public. */
export const defaultPagesRoot = fileURLToPath(new URL('./public', import.meta.url));

/**
 * Every setting of the pages server, each written once (the README's table comes from here):
 * each falls back to its default when unset or empty.
 */
export const PAGES_SETTINGS = {
  root: setting.text('PAGES_ROOT', defaultPagesRoot, {
    doc: 'the folder of built pages',
    shown: '`services/pages/dist/public`',
    accepts: 'a folder',
  }),
  sitePairs: setting.custom('SITE_PAIRS', parseSitePairs(DEFAULT_SITE_PAIRS), {
    doc: 'host pairs the pages swap between ([docs/pages.md](docs/pages.md))',
    shown: `\`${DEFAULT_SITE_PAIRS}\``,
    accepts: 'comma-separated `host<->host` pairs',
    read: (env, fallback) => {
      const raw = envString(env, 'SITE_PAIRS', '');
      return raw === '' ? fallback : parseSitePairs(raw);
    },
  }),
  thirdSite: thirdSiteSetting(
    "a third name of this server, on the pages' scheme and port: the playground's redirect to a third origin; `none`: those cases say there is none instead of sending",
  ),
  websocketTargetPort: setting.optionalInt('WEBSOCKET_TARGET_PORT', 1, 65_535, {
    doc: "the loopback port of the Local Network Access page's WebSocket target (`npm start` starts one and sets it); unset: the page says there is none",
    shown: 'unset',
  }),
  rebindSiteFile: setting.custom('REBIND_SITE_FILE', undefined as string | undefined, {
    doc: "the file the DNS rebinding lab writes when it runs as a service of its own (compose's `rebind` profile, [docs/local-servers.md](docs/local-servers.md)); unset: only `npm start -- --rebind` turns it on",
    shown: 'unset',
    accepts: 'a file path',
    read: (env, fallback) => envString(env, 'REBIND_SITE_FILE', '') || fallback,
  }),
};

/** Everything the pages server needs; createApp takes it whole and reads nothing else. */
export type PagesConfig = ValuesOf<typeof PAGES_SETTINGS>;

/**
 * Before a server starts: the folder of pages holds them (index.html). Unbuilt pages, or a
 * PAGES_ROOT that names another folder, would otherwise answer every page 404.
 */
export function checkPagesRoot(root: string): void {
  if (existsSync(join(root, 'index.html'))) return;
  throw new ConfigError(
    root === defaultPagesRoot
      ? `the pages are not built (${root} holds no index.html): run npm run build`
      : `PAGES_ROOT=${root} holds no index.html: name the folder of built pages (npm run build writes ${defaultPagesRoot})`,
  );
}

/** The settings from the environment; a bad value throws a ConfigError naming the variable. */
export function pagesConfigFromEnv(env: Env): PagesConfig {
  return readSettings(PAGES_SETTINGS, env);
}

/** Where the pages server listens when it runs on its own. */
export const PAGES_LISTEN_SETTINGS = listenSettings(3001, 'port the pages server listens on when it runs on its own');

/** What else only the pages server's own start reads: what it prints for a class. */
export const PAGES_START_SETTINGS = {
  studentOrigins: setting.custom('STUDENT_ORIGINS', [] as string[], {
    doc: 'the addresses a class opens, printed on start for the teacher to hand out',
    shown: 'none',
    accepts: 'a comma-separated list of http(s) URLs',
    read: (env, fallback) =>
      envString(env, 'STUDENT_ORIGINS', '').trim() === '' ? fallback : studentOriginsFromEnv(env),
  }),
};
