// fcast30: the self time of two `--cpu-prof` profiles by function (name, file, line), in µs per push (PUSHES: the
// pushes of each run), their difference first, largest first: what one variant spends that the other does not.
//   node --cpu-prof --cpu-prof-dir=A bench/fcast30/push-cpu.mjs none 3000   (and B with `model`)
//   node bench/fcast30/profile-diff.mjs A B PUSHES
import { readFileSync, readdirSync } from 'node:fs';
const pushes = Number(process.argv[4]);
function self(dir) {
  const p = JSON.parse(readFileSync(dir + '/' + readdirSync(dir)[0], 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const m = new Map();
  const dt = p.timeDeltas;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]);
    const cf = n.callFrame;
    const k = `${cf.functionName || '(anon)'} ${cf.url.replace(/.*dist\//, '')}:${cf.lineNumber}`;
    m.set(k, (m.get(k) ?? 0) + (dt[i + 1] ?? 0));
  }
  return m;
}
const a = self(process.argv[2]),
  b = self(process.argv[3]);
const keys = new Set([...a.keys(), ...b.keys()]);
const rows = [...keys].map((k) => [k, ((b.get(k) ?? 0) - (a.get(k) ?? 0)) / pushes, (a.get(k) ?? 0) / pushes, (b.get(k) ?? 0) / pushes]);
rows.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
let ta = 0,
  tb = 0;
for (const v of a.values()) ta += v;
for (const v of b.values()) tb += v;
console.log('total µs/push', (ta / pushes).toFixed(3), (tb / pushes).toFixed(3));
for (const r of rows.slice(0, 45)) console.log(r[1].toFixed(3).padStart(8), r[2].toFixed(3).padStart(8), r[3].toFixed(3).padStart(8), r[0]);
