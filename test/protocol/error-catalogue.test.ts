/**
 * One error catalogue (src/errors.ts): the wire codes, the JSON Schemas in proto/ and the
 * tables of proto/README.md list the same codes with the same status and meaning, in the
 * same order (as fastify checks its error codes against its docs).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { WIRE_ERROR_CODES } from '../../src/protocol/server-messages.js';

const PROTO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../proto');
const readme = readFileSync(path.join(PROTO, 'README.md'), 'utf8');
const schema = (name: string): unknown => JSON.parse(readFileSync(path.join(PROTO, name), 'utf8'));

/** The cells of the first Markdown table after `from` in `text` (header and rule left out). */
function tableAfter(text: string, from: string): string[][] {
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`proto/README.md: no "${from}"`);
  const lines = text.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const unquote = (cell: string): string => cell.replace(/^`|`$/g, '');

describe('error catalogue', () => {
  it('has codes of snake_case, each with an HTTP error status and a one-sentence meaning', () => {
    for (const [code, { status, summary }] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(summary, code).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('holds every wire code', () => {
    for (const code of WIRE_ERROR_CODES) expect(Object.keys(ERROR_CODES)).toContain(code);
    expect(new Set(WIRE_ERROR_CODES).size).toBe(WIRE_ERROR_CODES.length);
  });

  it('is the table of proto/README.md: same codes, order, status and meaning', () => {
    const rows = tableAfter(readme, '<!-- error catalogue -->');
    expect(rows.map(([code, status, meaning]) => [unquote(code!), Number(status), meaning])).toEqual(Object.entries(ERROR_CODES).map(([code, { status, summary }]) => [code, status, summary]));
  });

  it('lists the wire codes in the error-frame table of proto/README.md, in order', () => {
    const rows = tableAfter(readme.slice(readme.indexOf('## Errors')), '## Errors');
    expect(rows.map(([code]) => unquote(code!))).toEqual([...WIRE_ERROR_CODES]);
  });

  it('is what the JSON Schemas allow: error frames the wire codes, HTTP error bodies every code', () => {
    const frame = schema('server.error.schema.json') as { properties: { code: { enum: string[] } } };
    expect(frame.properties.code.enum).toEqual([...WIRE_ERROR_CODES]);
    const body = schema('http.error.schema.json') as { properties: { error: { properties: { code: { enum: string[] } } } } };
    expect(body.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
  });
});
