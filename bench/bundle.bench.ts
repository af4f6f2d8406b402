/**
 * The JavaScript each first page costs (issue 16): from the build's manifest
 * (dist/client/.vite/manifest.json), the chunks a first load of a page fetches — the entry and
 * its static imports, then the page's own chunk and its static imports — summed as the brotli
 * files the server sends. Over budget, `npm run bench` exits 1 (after the other benches). Builds first when
 * there is no build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { FIRST_PAGE_MODULES } from '../src/shared/first-pages';
import { clientDistDir } from '../src/server/app';
import { startBenchApp } from './support/bench-app';
import { recordFigure } from './support/figures';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const KB = 1000;
/**
 * Compressed JavaScript a first load of each page may fetch (issues 16 and 27). `atOnce` names
 * lazily loaded modules that this visit asks for as it starts: a new artist's first /dashboard
 * opens the profile dialog by itself (client/features/profile/profile-setup.tsx), so its chunk
 * and that chunk's static imports count too.
 */
const BUDGETS: { page: string; module: string; atOnce?: string[]; maxJs: number }[] = [
  { page: '/auth', module: FIRST_PAGE_MODULES['/auth'], maxJs: 100 * KB },
  { page: '/dashboard', module: FIRST_PAGE_MODULES['/dashboard'], maxJs: 170 * KB },
  { page: '/dashboard, new artist', module: FIRST_PAGE_MODULES['/dashboard'], atOnce: ['features/profile/profile-dialog.tsx'], maxJs: 170 * KB },
];

export default async function benchBundle(): Promise<void> {
  const manifestFile = path.join(clientDistDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile) || process.env.BENCH_BUILD === '1') {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('the manifest names no entry');

  const closure = (keys: string[], into = new Set<string>()) => {
    for (const key of keys) {
      if (into.has(key)) continue;
      if (!manifest[key]) throw new Error(`the manifest has no ${key}`);
      into.add(key);
      closure(manifest[key].imports ?? [], into);
    }
    return into;
  };
  const sizeOf = (file: string) => {
    const full = path.join(clientDistDir, file);
    const raw = statSync(full).size;
    const br = existsSync(`${full}.br`) ? statSync(`${full}.br`).size : raw;
    const gz = existsSync(`${full}.gz`) ? statSync(`${full}.gz`).size : raw;
    return { raw, br, gz };
  };

  const over: string[] = [];
  console.log('page                    chunks   JS raw    JS brotli  JS gzip   CSS brotli   goal (brotli JS)');
  for (const { page, module, atOnce = [], maxJs } of BUDGETS) {
    const keys = closure([entryKey, module, ...atOnce]);
    const js = { raw: 0, br: 0, gz: 0 };
    const cssFiles = new Set<string>();
    for (const key of keys) {
      const size = sizeOf(manifest[key]!.file);
      js.raw += size.raw;
      js.br += size.br;
      js.gz += size.gz;
      for (const css of manifest[key]!.css ?? []) cssFiles.add(css);
    }
    const cssBr = [...cssFiles].reduce((sum, file) => sum + sizeOf(file).br, 0);
    const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;
    const ok = js.br <= maxJs;
    console.log(
      `${page.padEnd(23)} ${String(keys.size).padStart(6)} ${kb(js.raw).padStart(9)} ${kb(js.br).padStart(10)} ${kb(js.gz).padStart(9)} ${kb(cssBr).padStart(11)}   ≤ ${kb(maxJs)} ${ok ? 'ok' : 'OVER'}`,
    );
    if (!ok) over.push(page);
    recordFigure(`JavaScript of a first ${page} (brotli)`, kb(js.br), `≤ ${kb(maxJs)}`, ok);
  }
  await pagesCompressed();
  if (over.length > 0) {
    console.error(`over budget: ${over.join(', ')}`);
    process.exitCode = 1;
  }
}

/**
 * Pages carry the session, so they are written per request; CONTRACT §15 still wants any answer
 * of 1 KB or more compressed (issue 27). GET / and /auth, signed out, from the product serving
 * this build, asking for brotli as a browser does.
 */
async function pagesCompressed(): Promise<void> {
  const { origin, stop } = await startBenchApp('pages', 'dist');
  try {
    for (const page of ['/', '/auth']) {
      const res = await fetch(`${origin}${page}`, { headers: { 'accept-encoding': 'br, gzip' } });
      const sent = (await res.arrayBuffer()).byteLength;
      const encoding = res.headers.get('content-encoding') ?? 'none';
      const ok = res.status === 200 && encoding !== 'none';
      console.log(`GET ${page}: ${res.status}, content-encoding ${encoding}, ${sent} bytes sent (goal: compressed) ${ok ? 'ok' : 'MISSED'}`);
      recordFigure(`GET ${page} page`, `${encoding}, ${sent} bytes`, 'compressed (≥ 1 KB pages)', ok);
      if (!ok) process.exitCode = 1;
    }
  } finally {
    await stop();
  }
}
