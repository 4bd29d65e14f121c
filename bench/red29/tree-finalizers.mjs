// Are tree-sitter trees freed between parses? N parses of distinct 3,000-line Python texts (50 KB) in one loop, or with
// a turn of the event loop after each (`turn`); `ballast` ties an ArrayBuffer of 64 bytes a character to each tree
// (V8 then counts it as external memory: it did not help). Prints the peak RSS.
// node tree-finalizers.mjs N none|ballast [turn]
import { setImmediate } from 'node:timers';
import Parser from 'tree-sitter';
import Python from 'tree-sitter-python';
const [n, mode] = [Number(process.argv[2]), process.argv[3]];
const p = new Parser();
p.setLanguage(Python);
const base = Array.from({ length: 3000 }, (_, i) => (i % 10 === 0 ? `def f${i}(x):` : `    x = x + ${i}`));
const ballast = new WeakMap();
let peak = 0;
for (let i = 0; i < n; i++) {
  base[i % 2000] = `    y = ${i}`;
  const text = base.join('\n');
  const t = p.parse(text);
  if (mode === 'ballast') ballast.set(t, new ArrayBuffer(text.length * 64));
  if (process.argv[4] === 'turn') await new Promise((r) => setImmediate(r));
  if (i % 25 === 0) peak = Math.max(peak, process.memoryUsage().rss);
}
console.log(`${mode} n ${n} peak rss ${(peak / 1e6).toFixed(0)} MB end ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
