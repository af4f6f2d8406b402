import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PublicUser } from '@shared/auth';
import { FIRST_PAGE_MODULES, FIRST_PAGE_READS, MAILED_LINK_DOCUMENT, MAILED_LINK_MANIFEST, MAILED_LINK_PAGES, mailedLinkPage, SESSION_IN_PAGE_ID } from '@shared/first-pages';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

interface FirstPageDocuments {
  /**
   * index.html for an address (its path, without the query), with who is signed in written in,
   * and, when someone is, the reads the address's page makes as it opens named as preload links.
   */
  documentFor(pathname: string, user: PublicUser | null): string;
}

/**
 * index.html for each first page (src/shared/first-pages.ts), with that page's chunks named as
 * modulepreload links. Without them the browser learns of the page's chunks only once the entry
 * script has run: two downloads one after the other on a slow phone network instead of one
 * (issue 16, decision 140). The addresses of a link in an email get the build's
 * mailed-link.html instead, the light entry of those pages alone (a build of its own, on Preact,
 * with its own manifest), with their page's chunks named the same way (issue 50, decision 202).
 * Every document also carries the session (decision 144); that of a signed-in visit also names the
 * page's first reads as preload links (FIRST_PAGE_READS, decision 210). Worked out once at start-up
 * from the build; an address without an entry gets index.html as built. Undefined when there is no build.
 */
export function firstPageDocuments(clientDir: string): FirstPageDocuments | undefined {
  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const index = readFileSync(indexFile, 'utf8');
  const mailedLinkFile = path.join(clientDir, MAILED_LINK_DOCUMENT);
  const mailedLink = existsSync(mailedLinkFile) ? readFileSync(mailedLinkFile, 'utf8') : undefined;
  const documents = new Map<string, string>();
  /** The mailed-link document for each of its pages' modules. */
  const mailedLinkDocuments = new Map<string, string>();
  const app = readManifest(path.join(clientDir, '.vite', 'manifest.json'));
  if (app && index.includes('</head>')) {
    for (const [address, module] of Object.entries(FIRST_PAGE_MODULES)) {
      if (app[module]) documents.set(address, withPage(app, index, 'index.html', module));
    }
  }
  /** The documents of a signed-in visit that names reads (an anonymous visit's reads would be refused). */
  const signedInDocuments = new Map(Object.entries(FIRST_PAGE_READS).map(([address, reads]) => [address, withReads(documents.get(address) ?? index, reads)]));
  // The mailed-link pages are a build of their own (vite.config.ts): their chunks are in its manifest.
  const mailedLinkManifest = readManifest(path.join(clientDir, MAILED_LINK_MANIFEST));
  if (mailedLinkManifest && mailedLink?.includes('</head>')) {
    for (const module of new Set(MAILED_LINK_PAGES.map((page) => page.module))) {
      if (mailedLinkManifest[module]) mailedLinkDocuments.set(module, withPage(mailedLinkManifest, mailedLink, MAILED_LINK_DOCUMENT, module));
    }
  }
  const documentOf = (pathname: string, signedIn: boolean) => {
    const mailed = mailedLink === undefined ? undefined : mailedLinkPage(pathname);
    if (mailed) return mailedLinkDocuments.get(mailed.module) ?? mailedLink!;
    return (signedIn ? signedInDocuments : documents).get(pathname) ?? index;
  };
  return {
    documentFor: (pathname, user) => withSession(documentOf(pathname, user !== null), user),
  };
}

type Manifest = Record<string, ManifestChunk>;

function readManifest(file: string): Manifest | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined;
}

/** The chunks `keys` name and everything they import statically, as manifest keys. */
function closure(manifest: Manifest, keys: string[], into = new Set<string>()): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk || into.has(key)) continue;
    into.add(key);
    closure(manifest, chunk.imports ?? [], into);
  }
  return into;
}

/** A document with its page's chunks, less what its entry already brings (Vite's own tags in the document name these). */
function withPage(manifest: Manifest, document: string, entryHtml: string, module: string): string {
  const entry = closure(manifest, Object.keys(manifest).filter((key) => manifest[key]!.isEntry && (manifest[key]!.src ?? key) === entryHtml));
  const links = [...closure(manifest, [module])]
    .filter((key) => !entry.has(key))
    .map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key]!.file}">`);
  return document.replace('</head>', `${links.join('')}</head>`);
}

/**
 * A document with `reads` (same-origin API addresses) as preload links. `as="fetch"` with
 * credentials, as the app's fetch asks (lib/api.ts): only a request of the same mode is
 * answered from the preload, any other would fetch a second time.
 */
function withReads(document: string, reads: readonly string[]): string {
  if (reads.length === 0) return document;
  const links = reads.map((read) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${read}">`);
  return document.replace('</head>', `${links.join('')}</head>`);
}

/**
 * The session as a JSON data block (never run, so the page's CSP has nothing to allow) at the end
 * of the body; the entry script is a module, so it runs after the whole page is parsed and finds
 * it there. Every `<` is escaped: no text a person typed into their profile can
 * close the element.
 */
function withSession(document: string, user: PublicUser | null): string {
  const json = JSON.stringify(user).replace(/</g, '\\u003c');
  const block = `<script id="${SESSION_IN_PAGE_ID}" type="application/json">${json}</script>`;
  const at = document.indexOf('</body>');
  return at === -1 ? document + block : document.slice(0, at) + block + document.slice(at);
}
