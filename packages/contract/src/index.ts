// The contract between the services, the pages, e2e and bench: the shapes that cross a boundary
// (types), and the values and pure functions both sides of one must agree on (`as const` lists
// with their types derived from them, the CORS lab's URL codec, bodyKindOf). No dependency, no
// I/O: the api and the pages' browser modules load the same files (the pages through an import
// map, see services/pages/web/README.md). This index only re-exports; no module here imports it.
// The api's lab URL reader is a second entry, `@origin-lab/contract/lab-cors-read`, which the
// browser never loads. The MCP lab's switches are an entry of their own too,
// `@origin-lab/contract/lab-mcp`, which only the MCP page loads.

export * from './shapes.js';
export * from './echo.js';
export * from './lab-cors.js';
export * from './site.js';
export type { JournalItem, JournalPage, ServerJournalEntry } from './server-journal.js';
export type { EngineName, EngineOutcome, EngineRecord, PackedOutcome, PackedRecord } from './engine-records.js';
