import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/** An unguessable token for cookies and one-time URLs. */
export const newToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
