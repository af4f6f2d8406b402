import { constants as zlibConstants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Alias, type InlineConfig, type Plugin, type PluginOption } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { MAILED_LINK_ASSETS, MAILED_LINK_DOCUMENT, MAILED_LINK_MANIFEST } from './src/shared/first-pages.js';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const outDir = dir('./dist/client');

const plugins = (): PluginOption[] => [
  react(),
  tailwindcss(),
  // Every text asset also as .br and .gz, compressed once at build time at the highest level;
  // the server sends whichever the browser accepts (CONTRACT §15, src/server/app.ts).
  compression({
    algorithms: [
      defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
      defineAlgorithm('gzip', { level: 9 }),
    ],
    threshold: 1024,
  }),
];

const alias: Alias[] = [
  { find: '@shared', replacement: dir('./src/shared') },
  { find: '@client', replacement: dir('./src/client') },
];

const rolldownOptions = (input: Record<string, string>) => ({
  input,
  // Small chunks shared by a few screens are copied into the chunks that use them instead of
  // being files of their own (one module state still, through rolldown's runtime registry):
  // a first load of /auth fetches 9 files instead of 33. On a phone network without HTTP/2
  // each file costs a round trip on one of six connections, and that, more than the bytes,
  // is what held the first paint (decision 144). Chunks with styles stay files, as the
  // option's documentation asks of a Vite build.
  preserveEntrySignatures: false as const,
  output: {
    codeSplitting: {
      experimentalInlineCommonChunks: { maxSize: 32 * 1024, exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/ },
    },
  },
});

/**
 * The pages a link in an email opens (mailed-link.html, src/shared/first-pages.ts, decision 202
 * as amended) are built a second time on their own, right after the app, into the same
 * dist/client: their entry and pages run on Preact's React-compatible layer instead of React
 * (React's renderer alone is 59 KB compressed; their goal is 60 KB). Vite aliases per build, not
 * per input, hence a second build: its chunks in assets/mailed-link/, its manifest
 * (MAILED_LINK_MANIFEST) beside the app's, its mailed-link.html over the app's build's, the public
 * files left to the app's build. Development serves these pages from the app's config, on React;
 * first-page-imports.test.ts holds their code to the React names Preact's layer has.
 */
const mailedLinkBuild = (): InlineConfig => ({
  configFile: false,
  root: dir('./src/client'),
  publicDir: false,
  plugins: plugins(),
  resolve: {
    alias: [
      ...alias,
      // Exact names only: `react` must not catch `react-dom` or `react/jsx-runtime` by prefix.
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
    ],
  },
  build: {
    outDir,
    emptyOutDir: false,
    assetsDir: MAILED_LINK_ASSETS,
    sourcemap: true,
    manifest: MAILED_LINK_MANIFEST,
    rolldownOptions: rolldownOptions({ 'mailed-link': dir(`./src/client/${MAILED_LINK_DOCUMENT}`) }),
  },
});

/** Runs the mailed-link pages' build once the app's is written (`vite build` makes both). */
function thenMailedLinkPages(): Plugin {
  let logLevel: InlineConfig['logLevel'];
  return {
    name: 'then-mailed-link-pages',
    apply: 'build',
    configResolved(config) {
      logLevel = config.logLevel;
    },
    async closeBundle(error) {
      if (error) return;
      await build({ ...mailedLinkBuild(), logLevel });
    },
  };
}

export default defineConfig({
  root: dir('./src/client'),
  publicDir: dir('./src/client/public'),
  plugins: [...plugins(), thenMailedLinkPages()],
  resolve: { alias },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    // bench/bundle.bench.ts reads which chunks each page loads from here.
    manifest: true,
    // The app's document, and mailed-link.html on React as in development (src/server/app.ts):
    // the second build above then writes its own mailed-link.html over this one, and only its
    // chunks are named by any page. Built here too because the app's chunks are split around the
    // code both documents share: with index.html alone, rolldown splits a first /auth into 8
    // files instead of 6, 2 KB more (decision 202, amended).
    rolldownOptions: rolldownOptions({ index: dir('./src/client/index.html'), 'mailed-link': dir(`./src/client/${MAILED_LINK_DOCUMENT}`) }),
  },
});
