// One lint stack for the workspace: typescript-eslint with type information, so floating and misused
// promises (the bugs that lose alerts) are errors.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// The broker connector's rooms (docs/architecture.md, "The broker connector's rooms"): imports run one way,
// pages -> intake -> trading -> feeds -> repositories -> shared. Each room lists the rooms above it, which it
// may not import; app.ts wires them all.
const CONNECTOR = 'services/broker-connector/src'
const ROOMS_ABOVE = {
  intake: ['pages'],
  trading: ['pages', 'intake'],
  feeds: ['pages', 'intake', 'trading'],
  repositories: ['pages', 'intake', 'trading', 'feeds'],
  shared: ['pages', 'intake', 'trading', 'feeds', 'repositories'],
}
const connectorRooms = Object.entries(ROOMS_ABOVE).map(([room, above]) => ({
  files: [`${CONNECTOR}/${room}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^\\.{1,2}/(.*/)?(${above.join('|')})/`,
            message: `the connector's ${room} room imports only the rooms below it (${above.join(', ')} stand above it): docs/architecture.md`,
          },
        ],
      },
    ],
  },
}))

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/.tap/**', '**/public/**', 'coverage/**', '.dev/**', '**/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': ['error', { ignoreRestArgs: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    // Long functions hide several jobs; tests and benches are exempt (a scenario reads top to bottom).
    files: ['**/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // tap awaits every t.test() itself (and fails a test left pending); the rule cannot tell that
    // method apart, so top-level subtests would all need a \`void\`.
    files: ['**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
  ...connectorRooms,
  {
    // Migrations see the database as it was: Kysely<any> is the rule there.
    files: ['packages/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
