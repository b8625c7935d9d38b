export * from './raw-http.js';
export * from './poll.js';
export * from './process.js';
export * from './listening.js';
export * from './redis.js';
