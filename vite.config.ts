import { constants as zlibConstants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: dir('./src/client'),
  publicDir: dir('./src/client/public'),
  plugins: [
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
  ],
  resolve: {
    alias: {
      '@shared': dir('./src/shared'),
      '@client': dir('./src/client'),
    },
  },
  build: {
    outDir: dir('./dist/client'),
    emptyOutDir: true,
    sourcemap: true,
    // bench/bundle.bench.ts reads which chunks each page loads from here.
    manifest: true,
    rolldownOptions: {
      // Two documents: the app (index.html), and the pages a link in an email opens with a light
      // entry of their own (mailed-link.html, src/shared/first-pages.ts, decision 202).
      input: { index: dir('./src/client/index.html'), 'mailed-link': dir('./src/client/mailed-link.html') },
      // Small chunks shared by a few screens are copied into the chunks that use them instead of
      // being files of their own (one module state still, through rolldown's runtime registry):
      // a first load of /auth fetches 9 files instead of 33. On a phone network without HTTP/2
      // each file costs a round trip on one of six connections, and that, more than the bytes,
      // is what held the first paint (decision 144). Chunks with styles stay files, as the
      // option's documentation asks of a Vite build.
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          experimentalInlineCommonChunks: { maxSize: 32 * 1024, exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/ },
        },
      },
    },
  },
});
