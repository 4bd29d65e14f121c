/** The JSON Schemas of protocol v1, generated from the zod schemas the server validates with. */
import { z } from 'zod';
import { CLIENT_MESSAGE_SCHEMAS } from './client-messages.js';
import {
  addReferenceRequestSchema,
  addReferenceResponseSchema,
  removePtaResponseSchema,
  getRewardRequestSchema,
  getRewardResponseSchema,
  httpErrorSchema,
  scoreBatchRequestSchema,
  scoreRequestSchema,
  sessionStatusSchema,
  taskListResponseSchema,
  ticketRequestSchema,
  ticketResponseSchema,
} from './http-bodies.js';
import { freezeRequestSchema, pinRequestSchema } from './policy-state.js';
import { rankRequestSchema, rankResponseSchema } from './rank-bodies.js';
import { scoreResponseSchema, trajectoryReportSchema } from './report-schemas.js';
import { SERVER_MESSAGE_SCHEMAS } from './server-messages.js';
import { stepRecordSchema } from '../formats/step-schema.js';
import { alignmentSchema, calibrationResponseSchema, liveEventSchema, scoreStepsResponseSchema, sessionListResponseSchema, trajectoryViewSchema, webInfoSchema } from './view-bodies.js';

const SOURCES: Record<string, z.ZodType> = {
  ...Object.fromEntries(Object.entries(CLIENT_MESSAGE_SCHEMAS).map(([k, v]) => [`client.${k}`, v])),
  ...Object.fromEntries(Object.entries(SERVER_MESSAGE_SCHEMAS).map(([k, v]) => [`server.${k}`, v])),
  step: stepRecordSchema,
  report: trajectoryReportSchema,
  'http.score-request': scoreRequestSchema,
  'http.score-response': scoreResponseSchema,
  'http.add-reference-request': addReferenceRequestSchema,
  'http.add-reference-response': addReferenceResponseSchema,
  'http.tasks-response': taskListResponseSchema,
  'http.remove-pta-response': removePtaResponseSchema,
  'http.session-response': sessionStatusSchema,
  'http.score-batch-request': scoreBatchRequestSchema,
  'http.score-batch-response': z.object({
    results: z.array(z.union([scoreResponseSchema, httpErrorSchema])).describe("One entry per item, in order: the item's report, or {error} for that item alone"),
  }),
  'http.rank-request': rankRequestSchema,
  'http.rank-response': rankResponseSchema,
  'http.get-reward-request': getRewardRequestSchema,
  'http.get-reward-response': getRewardResponseSchema,
  'http.error': httpErrorSchema,
  'http.policy-pin-request': pinRequestSchema,
  'http.policy-freeze-request': freezeRequestSchema,
  'http.sessions-response': sessionListResponseSchema,
  'http.session-steps-response': trajectoryViewSchema,
  'http.session-alignment-response': alignmentSchema,
  'http.score-steps-request': scoreRequestSchema,
  'http.score-steps-response': scoreStepsResponseSchema,
  'http.calibration-response': calibrationResponseSchema,
  'http.web-info-response': webInfoSchema,
  'http.ticket-request': ticketRequestSchema,
  'http.ticket-response': ticketResponseSchema,
  'live.event': liveEventSchema,
};

/** File name (in `proto/`) → JSON Schema document. Deterministic: same schemas, same text. */
export function protocolJsonSchemas(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries(SOURCES).sort(([a], [b]) => a.localeCompare(b))) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    out[`${name}.schema.json`] = { $id: `https://steplens.dev/proto/v1/${name}.schema.json`, title: name, ...json };
  }
  return out;
}

/** The text written for one schema file. */
export const schemaText = (schema: Record<string, unknown>): string => `${JSON.stringify(schema, null, 2)}\n`;
