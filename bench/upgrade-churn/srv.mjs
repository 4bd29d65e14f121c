// The server for the reconnect-churn probe (T112): buildApp from a build's dist, tokens alice and bob (agents) and an operator.
// node srv.mjs DIST PORT [LIMIT=VALUE ...]; prints its pid once listening.
const [dist, port, ...limits] = process.argv.slice(2);
const { buildApp } = await import(`${dist}/src/server/app.js`);
const tokens = [
  { token: 'alice', tenant: 'alice' },
  { token: 'bob', tenant: 'bob' },
  { token: 'ops', tenant: 'ops', role: 'operator' },
];
const parsed = Object.fromEntries(limits.map((l) => l.split('=')).map(([k, v]) => [k, Number(v)]));
const app = await buildApp({ tokens, logLevel: 'warn', limits: parsed });
await app.listen({ host: '127.0.0.1', port: Number(port) });
console.log(`listening ${process.pid}`);
