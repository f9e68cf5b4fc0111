// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'coverage/', 'node_modules/', 'docs/examples/api.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Fastify plugins are async by contract even when they register routes synchronously.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // The layers of docs/architecture.md: dependencies point inward, and lint fails otherwise.
  layer('src/domain/**', ['adapters', 'ports', 'services', 'analyzers', 'http', 'workers', 'cli', 'root']),
  layer('src/ports/**', ['adapters', 'services', 'analyzers', 'http', 'workers', 'cli', 'root']),
  layer('src/analyzers/**', ['adapters', 'services', 'http', 'workers', 'cli', 'root']),
  layer('src/services/**', ['adapters', 'http', 'workers', 'cli', 'deps']),
  layer('src/http/**', ['adapters', 'workers', 'cli']),
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);

/**
 * Forbids the files of one layer to import the named parts of `src/`: a folder, `deps` (the composition
 * root) or `root` (every module at the top of src/: config, deps, logger, main, version).
 */
function layer(files, forbidden) {
  const folders = forbidden.filter((name) => name !== 'root' && name !== 'deps');
  const modules = forbidden.includes('root') ? ['config', 'deps', 'logger', 'main', 'version'] : [];
  if (forbidden.includes('deps')) modules.push('deps');
  const patterns = [];
  if (folders.length > 0)
    patterns.push({
      regex: `^(\\.{1,2}/)+(src/)?(${folders.join('|')})/`,
      message: `${files} may not import from ${folders.join(', ')} (see docs/architecture.md).`,
    });
  if (modules.length > 0)
    patterns.push({
      regex: `^(\\.{1,2}/)+(src/)?(${modules.join('|')})\\.js$`,
      message: `${files} may not import ${modules.join(', ')} (see docs/architecture.md).`,
    });
  return { files: [files], rules: { 'no-restricted-imports': ['error', { patterns }] } };
}
