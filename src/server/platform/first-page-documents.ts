import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIRST_PAGE_MODULES } from '@shared/first-pages';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * index.html for each first page (src/shared/first-pages.ts), with that page's chunks named as
 * modulepreload links. Without them the browser learns of the page's chunks only once the entry
 * script has run: two downloads one after the other on a slow phone network instead of one
 * (issue 16, decision 140). Worked out once at start-up from the build's manifest; an address
 * without an entry here gets index.html as built. Empty when the build has no manifest.
 */
export function firstPageDocuments(clientDir: string): Map<string, string> {
  const documents = new Map<string, string>();
  const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(manifestFile) || !existsSync(indexFile)) return documents;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const index = readFileSync(indexFile, 'utf8');
  if (!index.includes('</head>')) return documents;

  const closure = (keys: string[], into = new Set<string>()) => {
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk || into.has(key)) continue;
      into.add(key);
      closure(chunk.imports ?? [], into);
    }
    return into;
  };
  // What the entry already brings: Vite's own tags in index.html name these.
  const entry = closure(Object.keys(manifest).filter((key) => manifest[key]!.isEntry));

  for (const [address, module] of Object.entries(FIRST_PAGE_MODULES)) {
    if (!manifest[module]) continue;
    const links = [...closure([module])]
      .filter((key) => !entry.has(key))
      .map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key]!.file}">`);
    documents.set(address, index.replace('</head>', `${links.join('')}</head>`));
  }
  return documents;
}
