/** `GET /v1/forecast`: the forecast model in force, the versions put in force, and the learner's attempts. */
import type { FastifyInstance } from 'fastify';
import type { ForecastHolder } from './forecast-holder.js';
import type { ForecastLearner } from './forecast-learner.js';

export function registerForecastRoutes(app: FastifyInstance, holder: ForecastHolder | undefined, learner: ForecastLearner | undefined): void {
  app.get('/v1/forecast', async () => {
    if (holder === undefined) return { enabled: false };
    return {
      enabled: true,
      version: holder.version,
      models: holder.current.models.map((m) => ({ match: m.match, trainedOn: m.trainedOn, calibration: m.calibration, ...(m.recalibrated !== undefined ? { recalibrated: m.recalibrated } : {}) })),
      history: holder.history,
      learning: learner !== undefined ? { sessions: learner.sessions, attempts: learner.attempts } : null,
    };
  });
}
