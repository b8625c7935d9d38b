import { CHROMIUM, FIREFOX, WEBKIT, type KnownDifference } from './known-differences.js';

/**
 * The sign-in page's engine differences, measured (e2e/specs/sign-in.spec.ts): a list of its own,
 * so that only that page and the engines page load it (every other page stays under its 100 KB).
 */
export const SIGN_IN_DIFFERENCES: readonly KnownDifference[] = [
  {
    page: 'sign-in',
    experiment: 'redirect-query',
    engine: 'chromium',
    did: 'sends the SameSite=Strict cookie on the way back: it judges the navigation by its initiator (the app), not by the provider’s redirect in between',
    says: 'Chromium sent the Strict cookie too: it does not count the provider’s redirect on the way back as cross-site (RFC 6265bis does)',
    measured: CHROMIUM,
    departsFromSpec: true,
  },
  {
    page: 'sign-in',
    experiment: 'popup-coop-noopener-allow-popups',
    engine: 'firefox',
    did: 'does not know noopener-allow-popups (taken as unsafe-none): the popup keeps its opener and answers',
    says: 'this Firefox does not know noopener-allow-popups, so the popup kept its opener and answered',
    measured: FIREFOX,
    departsFromSpec: true,
  },
  ...(['redirect-query', 'redirect-form-post'] as const).map((experiment) => ({
    page: 'sign-in',
    experiment,
    engine: 'webkit' as const,
    did: 'never sends back app_none, the SameSite=None; Secure cookie this http://localhost page set',
    says: 'WebKit never sent app_none, the Secure cookie this http:// page set; the others as the spec says',
    measured: WEBKIT,
    departsFromSpec: true,
  })),
  {
    page: 'sign-in',
    experiment: 'frame-storage-access',
    engine: 'webkit',
    did: 'grants storage access at once, without asking (MiniBrowser runs without tracking prevention), yet the frame’s call comes without idp_session: the provider’s SameSite=None; Secure cookie, set over http://, was never kept',
    says: 'WebKit granted storage access without asking, but had never kept the provider’s Secure cookie from http://, so the frame’s call got 401',
    measured: WEBKIT,
    departsFromSpec: true,
  },
  {
    page: 'sign-in',
    experiment: 'frame-partitioned-cookie',
    engine: 'webkit',
    did: 'keeps no Partitioned cookie the framed http:// provider sets: the next frame comes without it',
    says: 'WebKit kept no partitioned cookie here',
    measured: WEBKIT,
    departsFromSpec: false,
  },
];
