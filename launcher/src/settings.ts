import { listenSettings, setting, type SettingsTable } from '@origin-lab/server-kit';
import { API_SETTINGS } from '@origin-lab/api';
import { PAGES_SETTINGS } from '@origin-lab/pages';
import { UPSTREAM_SETTINGS } from '@origin-lab/upstream-mock';
import { REBIND_SETTINGS } from './rebind/settings.js';

/** The launcher's own settings (`npm start`); the rest of the environment goes on to the api and the pages. */
export const LAUNCHER_SETTINGS = listenSettings(8080, 'port of the embedded default (`npm start`); 0 takes a free one');

/** Read only with `npm start -- --tls`: the ports of the Caddy front. */
export const TLS_FRONT_SETTINGS = {
  httpsPort: setting.int('HTTPS_PORT', 8443, 0, 65_535, {
    doc: '`npm start -- --tls`: port of the https:// addresses; 0 takes a free one ([docs/workshop.md](docs/workshop.md))',
  }),
  httpPort: setting.int('HTTP_PORT', 8880, 0, 65_535, {
    doc: '`npm start -- --tls`: port of the http:// addresses; 0 takes a free one',
  }),
};

/**
 * The README's configuration tables, by the name of their markers
 * (`<!-- settings:NAME -->` ... `<!-- /settings:NAME -->`): `npm run docs:settings` writes them.
 */
export const README_SETTINGS: Record<string, readonly SettingsTable[]> = {
  api: [LAUNCHER_SETTINGS, TLS_FRONT_SETTINGS, API_SETTINGS],
  pages: [PAGES_SETTINGS],
  'upstream-mock': [UPSTREAM_SETTINGS],
  rebind: [REBIND_SETTINGS],
};
