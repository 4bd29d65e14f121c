/** steplens/server: the server as a fastify app factory, its options, and the reference store. */
export { buildApp } from './app.js';
export type { AppOptions } from './options.js';
export { runServer } from './run.js';
export { ReferenceStore } from '../store/reference-store.js';
export type { ReferenceStorePort, StoredTaskStats } from '../store/store-port.js';
