import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../platform/db/client';
import { ensurePgliteTemplate, migrationsVersion } from './pglite-template';

/**
 * Migrates one template database per schema version, once: a PGlite directory that each test
 * file copies (creating a PGlite database costs seconds; pglite-template.ts), or, with
 * DATABASE_URL, a PostgreSQL template database that each test file clones with CREATE DATABASE
 * ... TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const version = migrationsVersion();
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const templateName = `hub_template_${version}`;
    await ensurePostgresTemplate(databaseUrl, templateName);
    project.provide('testDatabase', { kind: 'postgres', url: databaseUrl, template: templateName });
  } else {
    project.provide('testDatabase', { kind: 'pglite', templateDir: await ensurePgliteTemplate() });
  }
}

async function ensurePostgresTemplate(url: string, name: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return;
    const building = `${name}_building`;
    await admin.query(`drop database if exists "${building}"`);
    await admin.query(`create database "${building}"`);
    const database = await openDatabase({ databaseUrl: withDatabase(url, building), pgliteDir: '' });
    await database.close();
    await admin.query(`alter database "${building}" rename to "${name}"`);
  } finally {
    await admin.end();
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { kind: 'pglite'; templateDir: string } | { kind: 'postgres'; url: string; template: string };
  }
}
