/** The upstream-mock's one public entry: what the launcher builds it from. */
export { createApp, type UpstreamApp } from './app.js';
export { upstreamConfig, type UpstreamConfig } from './config.js';
