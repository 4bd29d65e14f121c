import { expect, it } from 'vitest';
import { ASTROID, Client, readSteps, useApp } from './helpers.js';

const app = useApp();

async function gauge(name: string): Promise<number> {
  const text = await (await fetch(`${app().url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

it('the active-sessions gauge counts open sessions: up on start, down on end', async () => {
  const steps = (await readSteps(ASTROID.passA)).slice(0, 3);
  const client = await Client.connect(app().wsUrl);
  client.send({ type: 'start', session: 'g1', task: ASTROID.task });
  await client.next((f) => f.type === 'started');
  expect(await gauge('steplens_active_sessions')).toBe(1);
  steps.forEach((step, seq) => client.send({ type: 'step', session: 'g1', seq, step }));
  client.send({ type: 'end', session: 'g1' });
  await client.next((f) => f.type === 'final');
  expect(await gauge('steplens_active_sessions')).toBe(0);
  expect((await (await fetch(`${app().url}/v1/sessions/g1`)).json()) as object).toMatchObject({ steps: 3 });
  client.ws.close();
});
