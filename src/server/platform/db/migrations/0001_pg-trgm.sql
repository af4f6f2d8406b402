-- Trigram matching for the admin search (docs/decisions/040-admin-list-at-scale.md). PGlite loads it
-- through the `extensions` option in db/client.ts; PostgreSQL ships it in contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
