import { expect, it } from 'vitest';
import { ASTROID, Client, readSteps, useApp } from './helpers.js';

const app = useApp();

it('a steplens step may omit t (the session numbers its steps); a step without an action is refused naming the field', async () => {
  const steps = (await readSteps(ASTROID.passA)).slice(0, 2).map(({ t: _t, ...rest }) => rest);
  const client = await Client.connect(app().wsUrl);
  client.send({ type: 'start', session: 'no-t', task: ASTROID.task });
  await client.next((f) => f.type === 'started');
  client.send({ type: 'step', session: 'no-t', seq: 0, step: steps[0] });
  expect(await client.next((f) => f.type === 'score')).toMatchObject({ seq: 0, t: 0 });
  client.send({ type: 'step', session: 'no-t', seq: 1, step: { tool: 'bash' } });
  const error = await client.next((f) => f.type === 'error');
  expect(error).toMatchObject({ code: 'bad_message', session: 'no-t', seq: 1 });
  expect(String(error.message)).toContain('action');
  client.send({ type: 'step', session: 'no-t', seq: 1, step: steps[1] });
  expect(await client.next((f) => f.type === 'score')).toMatchObject({ seq: 1, t: 1 });
  client.close();
});
