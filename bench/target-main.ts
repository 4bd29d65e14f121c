/**
 * The entry of a bench target process (server-process.ts forks it): a steplens target sizes its young generation
 * first, as `steplens serve` and `npm start` do before they load the server (src/server/young-generation.ts),
 * then server-process.ts runs the target.
 */
import { applyYoungGeneration, youngGenerationChoice } from '../src/server/young-generation.js';

if (process.argv[process.argv.indexOf('--target') + 1] === 'steplens') {
  const young = youngGenerationChoice([], process.env);
  if (!young.ok) throw young.error;
  applyYoungGeneration(young.value);
}
await import('./server-process.js');
