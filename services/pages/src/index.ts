/** The pages' one public entry: what the launcher builds them from. */
export { createApp } from './app.js';
export { checkPagesRoot, PAGES_SETTINGS, pagesConfigFromEnv, type PagesConfig } from './config.js';
