/**
 * What a store method gives back: the value itself from the in-memory stores (no promise, no
 * extra turn of the event loop on the embedded default's hot path) or a promise from Redis.
 * Callers await either.
 */
export type Awaitable<T> = T | Promise<T>;
