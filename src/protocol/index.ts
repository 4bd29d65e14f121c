/** Protocol v1: the zod schemas every raw input passes through, and their parsers. */
export * from '../formats/step-schema.js';
export * from './client-messages.js';
export * from './server-messages.js';
export * from './report-schemas.js';
export * from './http-bodies.js';
export * from './parse.js';
