/**
 * The api's one public entry: what the launcher, and tests of other workspaces, build it from.
 * Everything else in src/ is the api's own.
 */
export { createApp, type ApiApp } from './app.js';
export { API_SETTINGS, apiConfig, apiConfigFromEnv, defaultOrigins, type ApiConfig } from './config.js';
export { HTTP_VERSION_HEADER } from './journal/journal-entry.js';
