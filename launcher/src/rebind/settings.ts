import { setting } from '@origin-lab/server-kit';

/**
 * The rebinding lab's settings when it runs as a service of its own (`docker compose --profile
 * rebind up`, launcher/src/rebind/serve.ts). `npm start -- --rebind` takes free ports instead.
 */
export const REBIND_SETTINGS = {
  resolver: setting.int('REBIND_RESOLVER_PORT', 8853, 1, 65_535, {
    doc: "the rebinding lab's resolver (DNS over HTTPS) on 127.0.0.1",
  }),
  open: setting.int('REBIND_OPEN_PORT', 8854, 1, 65_535, {
    doc: 'its local server that answers any Host, on 127.0.0.1 and [::1]',
  }),
  checked: setting.int('REBIND_CHECKED_PORT', 8855, 1, 65_535, {
    doc: 'its local server that checks Host and Origin, on 127.0.0.1 and [::1]',
  }),
  siteFile: setting.text('REBIND_SITE_FILE', '/run/origin-lab/rebind.json', {
    doc: "where it writes its settings for the pages (the pages server's REBIND_SITE_FILE)",
    accepts: 'a file path',
  }),
};
