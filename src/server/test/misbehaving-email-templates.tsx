import { existsSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import type { EmailTemplate } from '../platform/email/email-template';
import type { TemplatesModule } from '../platform/email/render-pool';

/**
 * Email templates for the render pool's tests, loaded by its threads like the product's own.
 * `marker` names a file that does not exist yet: the first render makes it and misbehaves, the
 * next (a retry, on the thread that replaced the first) finds it and renders.
 */
export interface MisbehavingData {
  marker: string;
}

const once = (marker: string, misbehave: () => void) => {
  if (existsSync(marker)) return;
  writeFileSync(marker, '');
  misbehave();
};

const template = (name: string, misbehave: () => void): EmailTemplate<MisbehavingData> => ({
  preference: null,
  subject: () => `${name} on thread ${threadId}`,
  body: ({ marker }) => {
    once(marker, misbehave);
    return <p>{`Rendered on thread ${threadId}`}</p>;
  },
});

export const MISBEHAVING_TEMPLATES = {
  /** Blocks its thread for good: only terminating the thread ends it. */
  hangs_once: template('hangs_once', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)),
  /** Ends its thread. */
  crashes_once: template('crashes_once', () => process.exit(1)),
  /** A bug in the template: it throws, and its thread lives on. */
  throws_once: template('throws_once', () => {
    throw new Error('The template broke');
  }),
};

export const MISBEHAVING_TEMPLATES_MODULE: TemplatesModule = { url: import.meta.url, exportName: 'MISBEHAVING_TEMPLATES' };
