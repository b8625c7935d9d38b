/** The upstream-mock's one public entry: what the launcher builds it from. */
export { createApp, type UpstreamApp } from './app.js';
export { UPSTREAM_SETTINGS, upstreamConfig, type UpstreamConfig } from './config.js';
