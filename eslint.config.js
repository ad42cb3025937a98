// One lint setup for every package of the workspace.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import pluginVueA11y from 'eslint-plugin-vuejs-accessibility';

// What starts or is an SQL statement: a query, a data change, a lock or a notification.
const SQL_STATEMENT = String.raw`/\b(SELECT\s|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS\s*\(|FOR\s+(UPDATE|SHARE)\b|pg_\w+\()/`;

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'libs/contract/src/schema.ts', 'test/artifacts/**', 'data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Validators match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  // No import cycles in the TypeScript of the apps and libraries (npm test runs this lint). The
  // sources import `./x.js` for `./x.ts`, so the resolver maps `.js` back to `.ts`.
  {
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // SQL lives only in the api's repositories (`*.repository.ts`, one per feature), so a reader finds
  // every query of a feature in one file. The database folder is the connection and migration
  // layer (migrations, the migration lock, LISTEN/NOTIFY, the test databases) and common/sql.ts is
  // the typed helper the repositories call.
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/*.repository.ts',
      'apps/api/src/database/**',
      'apps/api/src/common/sql.ts',
      'apps/api/src/**/*.spec.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[`Literal[value=${SQL_STATEMENT}]`, `TemplateElement[value.raw=${SQL_STATEMENT}]`].map((selector) => ({
          selector,
          message: 'SQL belongs in a *.repository.ts of the feature.',
        })),
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'Queries run in a *.repository.ts of the feature; services call the repository.',
        },
      ],
    },
  },
  {
    files: ['apps/console/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Single-file components: Vue's recommended rules and its accessibility rules, with TypeScript in
  // <script setup lang="ts">. Layout rules are left to Prettier.
  ...[
    ...pluginVue.configs['flat/recommended'],
    pluginVue.configs['no-layout-rules'],
    ...pluginVueA11y.configs['flat/recommended'],
  ].map((config) => ({ ...config, files: ['**/*.vue'] })),
  {
    files: ['**/*.vue'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' },
      globals: { ...globals.browser },
    },
    rules: {
      // HTML associates a label with its control either by `for`/`id` or by nesting; the rule's
      // default demands both at once.
      'vuejs-accessibility/label-has-for': ['error', { required: { some: ['nesting', 'id'] } }],
    },
  },
);
