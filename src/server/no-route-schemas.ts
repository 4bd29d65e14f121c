/**
 * Fastify's schema compilers, left unloaded. Every request is validated by zod (src/protocol is the one place raw
 * input becomes typed) and no route declares a JSON schema, so fastify's default compilers, ajv and
 * fast-json-stringify's, would be loaded only to sit unused: ~90 ms of every `serve` start. A route given a validation or response
 * schema fails when it is registered, naming why.
 */
import type { FastifyServerOptions } from 'fastify';

const refuse = (): never => {
  throw new Error('steplens routes take no JSON schemas: validate input with zod in src/protocol');
};

/** The `schemaController` option: compilers that refuse any schema (a route's `schema.hide` alone compiles nothing). */
export const NO_ROUTE_SCHEMAS: FastifyServerOptions['schemaController'] = {
  compilersFactory: { buildValidator: () => refuse, buildSerializer: () => refuse },
};
