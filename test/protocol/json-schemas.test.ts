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

  it('describe every field (descriptions come from the zod schemas), so a client in any language knows what each means', () => {
    const missing: string[] = [];
    const walk = (s: Record<string, unknown> | undefined, at: string): void => {
      if (!s || typeof s !== 'object') return;
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (typeof v.description !== 'string' || v.description.length < 8) missing.push(`${at}.${k}`);
        walk(v, `${at}.${k}`);
      }
      for (const key of ['items', 'additionalProperties'] as const) if (typeof s[key] === 'object') walk(s[key] as Record<string, unknown>, `${at}[]`);
      for (const key of ['anyOf', 'oneOf', 'allOf'] as const) ((s[key] ?? []) as Array<Record<string, unknown>>).forEach((x, i) => walk(x, `${at}|${i}`));
    };
    for (const [name, schema] of Object.entries(protocolJsonSchemas())) walk(schema, name);
    expect(missing).toEqual([]);
  });

  it('say what a line range is: 1-based, both ends inclusive', () => {
    const step = JSON.stringify(protocolJsonSchemas()['step.schema.json']);
    expect(step).toContain('1-based, both ends inclusive');
  });
});
