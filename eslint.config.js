// One lint setup for every package of the workspace.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'libs/contract/src/schema.ts', 'test/artifacts/**', 'data/**', '**/*.vue'],
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
  {
    files: ['apps/console/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
