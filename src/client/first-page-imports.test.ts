import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAILED_LINK_PAGES } from '@shared/first-pages';

/**
 * What a first page's code brings with it (issues 27 and 37, decisions 163 and 181): following
 * the static imports (`import type` and `import()` left out, as the build does) from the entry
 * and what a first visit renders at once, zod and react-hook-form are never reached. zod and the
 * schemas come when a form is typed in or checked; react-hook-form with the longer forms. One
 * value import of a module with schemas (shared/rights.ts instead of shared/rights-texts.ts)
 * would put zod's 23 KB back on every first dashboard; bench/bundle.bench.ts counts the bytes.
 */
const src = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ALIASES: Record<string, string> = { '@client/': 'client/', '@shared/': 'shared/' };
const LATER = ['zod', 'react-hook-form', '@hookform/resolvers'];

const FIRST_VISITS: Record<string, string[]> = {
  '/auth, signed out': ['client/main.tsx', 'client/features/auth/auth-page.tsx'],
  // The dashboard, the live connection every signed-in page opens, and the profile dialog that
  // opens by itself on a new artist's first visit.
  "a new artist's first /dashboard": ['client/main.tsx', 'client/routes/dashboard-page.tsx', 'client/entities/live/live-data.tsx', 'client/features/profile/profile-dialog.tsx'],
  // The pages of a link in an email, from their own light entry (decision 202).
  ...Object.fromEntries(MAILED_LINK_PAGES.map(({ route, module }) => [`${route}, from the mailed-link entry`, ['client/mailed-link-main.tsx', `client/${module}`]])),
};

/**
 * The mailed-link entry (decision 202) draws its pages without the app's shell: none of the app's
 * routes, its session check, its live connection or its artist header is reached from it.
 */
const APP_SHELL = ['client/app.tsx', 'client/main.tsx', 'client/lib/auth.ts', 'client/lib/page-chrome.ts', 'client/entities/live/live-data.tsx'];

/** The value imports of a module: specifiers of `import … from`, `import '…'` and `export … from`, without the type-only ones. */
function valueImports(code: string): string[] {
  const found: string[] = [];
  const statement = /^\s*(?:import|export)\s+(type\s+)?(?:([\w$*{},\s]+?)\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const [, typeOnly, names = '', specifier] of code.matchAll(statement)) {
    if (typeOnly) continue;
    // `import { type A, type B } from …` is dropped by the build as a whole.
    const braces = /^\{([^}]*)\}$/.exec(names.trim());
    if (braces && braces[1]!.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '))) continue;
    found.push(specifier!);
  }
  return found;
}

function resolveModule(from: string, specifier: string): string | undefined {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  const base = alias ? ALIASES[alias]! + specifier.slice(alias.length) : specifier.startsWith('.') ? path.join(path.dirname(from), specifier) : undefined;
  if (base === undefined) return undefined;
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => base + ending).find((file) => /\.tsx?$/.test(file) && existsSync(path.join(src, file)));
}

/** The packages reached from `roots` through static value imports, and the source files walked. */
function reached(roots: string[]): { packages: Map<string, string>; files: Set<string> } {
  const packages = new Map<string, string>();
  const files = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of valueImports(readFileSync(path.join(src, file), 'utf8'))) {
      if (specifier.endsWith('.css')) continue;
      const local = resolveModule(file, specifier);
      if (local) queue.push(local);
      else if (!specifier.startsWith('.') && !specifier.startsWith('@client/') && !specifier.startsWith('@shared/')) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, file);
      } else throw new Error(`${file}: cannot resolve ${specifier}`);
    }
  }
  return { packages, files };
}

describe("what a first page's code imports", () => {
  it('reads imports as the build does: type-only ones and dynamic ones are left out', () => {
    expect(
      valueImports(
        [
          "import { z } from 'zod';",
          "import type { Owner } from '@shared/rights';",
          "import { type Agreement } from '@shared/rights';",
          "import { OWNER_ROLE_LABELS, type Agreement } from '@shared/rights-texts';",
          "export { TEAM_CONVERSATION_ID } from './conversations';",
          "export type { Message } from './messages';",
          "import './index.css';",
          "export const NOT_AN_IMPORT = 'text';",
          'export * as texts from "./texts";',
          "const later = () => import('@shared/auth');",
        ].join('\n'),
      ),
    ).toEqual(['zod', '@shared/rights-texts', './conversations', './index.css', './texts']);
  });

  for (const [visit, roots] of Object.entries(FIRST_VISITS)) {
    it(`${visit}: neither zod nor react-hook-form`, () => {
      const { packages, files } = reached(roots);
      // The walk went through the page and the shared modules it shows texts from.
      expect(files.size).toBeGreaterThan(roots.length);
      expect(packages.has('react-dom')).toBe(true);
      for (const name of LATER) expect(packages.get(name), `${name} is imported by ${packages.get(name)}`).toBeUndefined();
    });
  }

  it('the mailed-link entry reaches its pages, and none of the app shell', () => {
    const { files } = reached(['client/mailed-link-main.tsx']);
    // Each page is a chunk of its own, fetched for its address (and named in the document by the server).
    for (const { module } of MAILED_LINK_PAGES) expect(files.has(`client/${module}`), module).toBe(false);
    expect(files.has('client/mailed-link-routes.tsx')).toBe(true);
    for (const { module } of MAILED_LINK_PAGES) {
      const page = reached(['client/mailed-link-main.tsx', `client/${module}`]).files;
      for (const file of APP_SHELL) expect(page.has(file), `${module} reaches ${file}`).toBe(false);
    }
  });

  it("the mailed-link pages ask React only for what Preact's compatibility layer has: their build runs on it (decision 202)", async () => {
    const layer: Record<string, Record<string, unknown>> = {
      react: await import('preact/compat'),
      'react-dom': await import('preact/compat'),
      'react-dom/client': await import('preact/compat/client'),
    };
    const asked = new Map<string, string>();
    const roots = ['client/mailed-link-main.tsx', ...MAILED_LINK_PAGES.map(({ module }) => `client/${module}`)];
    for (const file of reached(roots).files) {
      const code = readFileSync(path.join(src, file), 'utf8');
      for (const [, names = '', from = ''] of code.matchAll(/^\s*import\s+(?!type\b)([^'"]*?)\s+from\s+['"](react(?:-dom)?(?:\/client)?)['"]/gm)) {
        // Only named imports: a default or namespace import would hide which names are used.
        expect(names.trim(), `${file}: ${names} from '${from}'`).toMatch(/^\{[^}]*\}$/);
        for (const name of names.slice(1, -1).split(',').map((n) => n.trim())) {
          if (name !== '' && !name.startsWith('type ')) asked.set(`${from}: ${name.split(/\s+as\s+/)[0]}`, file);
        }
      }
    }
    expect(asked.size).toBeGreaterThan(5);
    for (const [key, file] of asked) {
      const [from, name] = key.split(': ') as [string, string];
      expect(layer[from]![name], `${file} imports ${name} from '${from}'`).toBeDefined();
    }
  });

  it("a first page's code knows the error codes without the API's messages (decision 202)", () => {
    const { files } = reached([...new Set(Object.values(FIRST_VISITS).flat())]);
    expect(files.has('client/lib/api.ts')).toBe(true);
    expect(files.has('shared/error-codes.ts')).toBe(true);
    expect(files.has('shared/errors.ts')).toBe(false);
  });
});
