// `npm start`: build the client when its sources are newer than the build, then serve everything.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `vite build` writes the app, then the mailed-link pages' build (vite.config.ts): built when both are there.
const builtFiles = ['dist/client/index.html', 'dist/client/.vite/mailed-link-manifest.json'].map((f) => path.join(root, f));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return Math.min(...builtFiles.map((f) => statSync(f).mtimeMs));
  } catch {
    return 0;
  }
}

const sources = [path.join(root, 'src/client'), path.join(root, 'src/shared')];
const configs = ['vite.config.ts', 'package.json'].map((f) => statSync(path.join(root, f)).mtimeMs);
const sourcesAt = Math.max(...sources.map(newestMtime), ...configs);

if (builtAt() < sourcesAt) {
  console.log('Building the client...');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'src/server/main.ts'));
