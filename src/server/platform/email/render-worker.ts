import { workerData } from 'node:worker_threads';
import { renderEmail, type EmailTemplate } from './email-template';
import type { RenderTask, TemplatesModule } from './render-pool';

type Templates = Record<string, EmailTemplate<unknown> | undefined>;

/**
 * A render thread of the RenderPool (loaded through render-worker.mjs): it imports the templates
 * once, then renders each task piscina hands it with its kind's template.
 */
const { url, exportName } = workerData as TemplatesModule;
const templates = await importTemplates();

async function importTemplates(): Promise<Templates> {
  const table = ((await import(url)) as Record<string, Templates | undefined>)[exportName];
  if (!table) throw new Error(`${url} exports no ${exportName}`);
  return table;
}

/** Renders one task; `null`, the pool's warm-up, only had this thread load the templates. */
export default async function renderTask(task: RenderTask | null) {
  if (!task) return null;
  const { kind, data, context } = task;
  const template = templates[kind];
  if (!template) throw new Error(`No template for the ${kind} email in ${url}`);
  return renderEmail(template, data, context);
}
