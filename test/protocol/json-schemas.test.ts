import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { protocolJsonSchemas, schemaText } from '../../src/protocol/json-schemas.js';

const PROTO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../proto');

describe('proto/ JSON Schemas', () => {
  it('match the zod schemas exactly (regenerate with node dist/src/protocol/generate.js)', async () => {
    const schemas = protocolJsonSchemas();
    const onDisk = (await readdir(PROTO)).filter((n) => n.endsWith('.schema.json')).sort();
    expect(onDisk).toEqual(Object.keys(schemas).sort());
    for (const [name, schema] of Object.entries(schemas)) {
      expect(await readFile(path.join(PROTO, name), 'utf8'), name).toBe(schemaText(schema));
    }
  });

  it('cover every message of both directions and the HTTP bodies', () => {
    const names = Object.keys(protocolJsonSchemas());
    for (const t of ['start', 'step', 'outcome', 'end', 'resume', 'ping']) expect(names).toContain(`client.${t}.schema.json`);
    for (const t of ['started', 'score', 'signal', 'final', 'resumed', 'error', 'pong']) expect(names).toContain(`server.${t}.schema.json`);
    expect(names).toContain('http.score-request.schema.json');
    expect(names).toContain('step.schema.json');
  });
});
