/**
 * The package's public API as the type checker sees it, one line per export and member (private members named
 * only), from the declarations the build emitted for each entry point: `dist/src/index.d.ts`, `client/`,
 * `server/`. A refactor that moves code keeps this listing; diff it against a base build's:
 *
 *   node scripts/public-api.mjs > /tmp/after.txt; (cd /tmp/base && node scripts/public-api.mjs) > /tmp/before.txt; diff /tmp/before.txt /tmp/after.txt
 *
 * Module paths and the checker's symbol ids are left out (a type moved to another file is the same type).
 */
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? '.');
const entries = ['dist/src/index.d.ts', 'dist/src/client/index.d.ts', 'dist/src/server/index.d.ts'].map((f) => path.join(root, f));
const program = ts.createProgram(entries, { strict: true, noEmit: true, skipLibCheck: true });
const checker = program.getTypeChecker();
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.UseFullyQualifiedType;
const out = [];
const text = (type) => checker.typeToString(type, undefined, FLAGS);

function members(type, prefix) {
  for (const p of checker.getPropertiesOfType(type)) {
    const decl = p.valueDeclaration ?? p.declarations?.[0];
    const mods = decl ? ts.getCombinedModifierFlags(decl) : 0;
    if (mods & ts.ModifierFlags.Private) {
      out.push(`${prefix}.${p.name} PRIVATE`);
      continue;
    }
    const optional = p.flags & ts.SymbolFlags.Optional ? '?' : '';
    const readonly = mods & ts.ModifierFlags.Readonly ? ' readonly' : '';
    out.push(`${prefix}.${p.name}${optional}${readonly}: ${text(checker.getTypeOfSymbol(p))}`);
  }
  for (const s of checker.getSignaturesOfType(type, ts.SignatureKind.Call)) out.push(`${prefix}(): ${checker.signatureToString(s, undefined, FLAGS)}`);
  for (const s of checker.getSignaturesOfType(type, ts.SignatureKind.Construct)) out.push(`${prefix} new: ${checker.signatureToString(s, undefined, FLAGS)}`);
}

for (const entry of entries) {
  const file = program.getSourceFile(entry);
  if (file === undefined) throw new Error(`${entry}: not found (run the build first)`);
  for (let s of checker.getExportsOfModule(checker.getSymbolAtLocation(file))) {
    const name = `${path.relative(root, entry)}:${s.name}`;
    if (s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
    out.push(`${name} flags ${s.flags}`);
    if (s.flags & ts.SymbolFlags.Value) {
      const t = checker.getTypeOfSymbol(s);
      out.push(`${name} value: ${text(t)}`);
      members(t, `${name} static`);
    }
    if (s.flags & ts.SymbolFlags.Type) {
      const t = checker.getDeclaredTypeOfSymbol(s);
      out.push(`${name} type: ${text(t)}`);
      members(t, name);
    }
  }
}
console.log(
  out
    .join('\n')
    .replace(/@\d+/g, '')
    .replace(/import\("[^"]*"\)\./g, ''),
);
