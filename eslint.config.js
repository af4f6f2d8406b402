import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers of docs/architecture.md, enforced: shared → server platform → server domain | client
 * lib and components → client entities → features → app (app.ts, client/app.tsx and
 * client/routes/, where pages that combine features live). A feature imports shared code and the
 * layers below it, never another feature; the layers below never import a feature, lib and
 * components never import an entity, and the platform never imports the domain. No module imports
 * itself through a cycle. The feature folders are read from disk, so a new feature is covered the
 * day it is made. src/boundaries.test.ts proves the rules fire.
 */
const featuresOf = (side) =>
  readdirSync(new URL(`./src/${side}/features`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Imports of another feature's insides: by alias or a path through `features/`, or a sibling `../other/`. */
function otherFeaturePattern(features, own) {
  const others = features.filter((f) => f !== own).map(escape).join('|');
  return {
    regex: `(^|/)features/(${others})(/|$)|^(\\.\\./)+(${others})(/|$)`,
    message: `Features never import each other (docs/architecture.md#layers): move what ${own} shares down to src/shared, src/server/platform, src/client/entities, src/client/lib or src/client/components, or compose the features at the app layer (src/client/routes).`,
  };
}

const SERVER_ONLY = { group: ['**/client/**', '@client/*'], message: 'The server never imports client code.' };
const CLIENT_ONLY = { group: ['**/server/**', '@server/*'], message: 'The client never imports server code; wire shapes live in src/shared.' };
const NO_DOMAIN = { regex: '(^|/)domain(/|$)', message: 'The platform is infrastructure and never imports the domain (docs/architecture.md#layers): pass what it needs in (as the outbox takes the email kinds).' };
const NO_FEATURES = { regex: '(^|/)(features|routes)(/|$)', message: 'A lower layer never imports a feature or a page (docs/architecture.md#layers): move the shared piece down here instead.' };
const NO_ENTITIES = { regex: '(^|/)entities(/|$)', message: 'client/lib and client/components sit below the entities (docs/architecture.md#layers): they never import src/client/entities.' };

const featureBoundaries = (side, only) =>
  featuresOf(side).map((feature) => ({
    files: [`src/${side}/features/${feature}/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [only, otherFeaturePattern(featuresOf(side), feature)] }] },
  }));

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', 'src/server/platform/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [CLIENT_ONLY] }],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_ONLY] }] },
  },
  // The layers below the features.
  {
    files: ['src/client/lib/**/*.{ts,tsx}', 'src/client/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT_ONLY, NO_FEATURES, NO_ENTITIES] }] },
  },
  // What several features show of one submission or message: above lib and components, below the features.
  {
    files: ['src/client/entities/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT_ONLY, NO_FEATURES] }] },
  },
  {
    files: ['src/server/platform/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_ONLY, NO_FEATURES, NO_DOMAIN] }] },
  },
  {
    files: ['src/server/domain/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_ONLY, NO_FEATURES] }] },
  },
  // Import cycles, type-only imports included (a cycle of types is still two modules that cannot
  // be understood apart). The resolver reads tsconfig.json, so the @shared/@server/@client aliases count.
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          tsconfig: { configFile: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) },
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  ...featureBoundaries('server', SERVER_ONLY),
  ...featureBoundaries('client', CLIENT_ONLY),
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '**/client/**', '@server/*', '@client/*'], message: 'shared/ imports nothing above it.' }] }],
    },
  },
);
