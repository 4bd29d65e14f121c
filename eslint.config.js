// ESLint flat config: typescript-eslint's type-checked rules over everything TypeScript in the repository.
// Formatting is Prettier's job (.prettierrc), so no rule here is about layout. See CONTRIBUTING.md, "Lint".
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Build output, installed packages, the user data folder, the Python client, and every hidden folder
  // (test/.corpus, git worktrees or tool scratch put inside the checkout): none of it is our source.
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'clients/python/', 'web/dist/', '**/.*/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    // A disable comment that no longer suppresses anything is an error (each one says why, after `--`).
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Checked indexed access (noUncheckedIndexedAccess): `xs[i]!` where an invariant guarantees the
      // element, never `xs[i] as T` for the same job; the rule below rewrites such casts to `!`.
      '@typescript-eslint/non-nullable-type-assertion-style': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Type-only imports are written `import type` (verbatimModuleSyntax needs it; this keeps the style one).
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `const { type, ...rest } = frame` drops fields on purpose (the rest is what is compared).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Interfaces and type aliases are both used for object shapes; a type alias also names unions and mapped types.
      '@typescript-eslint/consistent-type-definitions': 'off',
      // `s || undefined` deliberately treats an empty string from a log as missing.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // `async` marks a function that fulfils a Promise contract (a store port, a fastify handler, hook or plugin,
      // `Command.run`): a throw becomes a rejection, and fastify needs `done` from a sync hook or plugin. So it
      // stays without an `await`; forgotten awaits are caught by no-floating-promises / no-misused-promises.
      '@typescript-eslint/require-await': 'off',
      // `T[]` for simple element types, `Array<...>` / `ReadonlyArray<...>` for the rest (as the code is written).
      '@typescript-eslint/array-type': ['error', { default: 'array-simple' }],
    },
  },
  {
    // Patterns that backtrack super-linearly (eslint-plugin-regexp; the two rules' attack strings are runs of one
    // character): a tenant's step text or log reaches src/ on the event loop every session shares, so a flagged pattern
    // is rewritten, or its disable says what bounds its input and the time measured at that bound. bench/ too (a few
    // disables). Not test/: the `*-linear` tests keep the old patterns to compare against, and the rest read the
    // repository's own fixtures and docs.
    files: ['src/**/*.ts', 'bench/**/*.ts'],
    plugins: { regexp },
    rules: { 'regexp/no-super-linear-backtracking': 'error', 'regexp/no-super-linear-move': 'error' },
  },
  {
    // vitest's asymmetric matchers (`expect.any`, `expect.stringMatching`, ...) are typed `any`.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Plain JavaScript (this file, scripts) and the web build's config (in no tsconfig): no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', 'web/vite.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
