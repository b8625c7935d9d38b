// The engines as this project starts them: where they are on a machine (engine-places.ts,
// find-engines.ts), Debian's browsers and their launch options (browsers.ts), WebKitGTK's driver
// in a process group of its own (webkit-driver.ts), the capabilities of its sessions
// (webkit-capabilities.ts) and one session opened on both (webkit-session.ts), and WebKit's
// console read from a MiniBrowser of its own (webkit-console.ts, on display-group.ts). The e2e
// suite and `origin-lab check` start engines only through here. This index only re-exports; no
// module here imports it.

export * from './browsers.js';
export * from './engine-places.js';
export * from './find-engines.js';
export * from './webkit-driver.js';
export * from './webkit-capabilities.js';
export * from './webkit-session.js';
export * from './display-group.js';
export * from './group-guard.js';
export * from './webkit-console.js';
