import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules of eslint.config.js bite: a crossing import fails `npm run lint`, an allowed one
 * passes. The code is linted as if it were the named file (which need not exist).
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** The import-x/no-cycle findings of a real file with `code` in place of its text. */
async function cycles(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => m.message);
}

describe('feature boundaries', () => {
  it.each([
    ['src/server/features/admin/crossing.ts', "import { deleteSubmission } from '../submissions/submissions';"],
    ['src/server/features/admin/deep/crossing.ts', "import { deleteSubmission } from '../../submissions/submissions';"],
    ['src/server/features/notifications/crossing.ts', "import { handleStripeEvent } from '@server/features/payments/handle-stripe-event';"],
    ['src/client/features/dashboard/crossing.tsx', "import { useDraft } from '@client/features/submissions/use-draft-autosave';"],
    ['src/client/features/admin/crossing.tsx', "import { ChatPane } from '../messages/chat-pane';"],
  ])('refuses a feature importing another: %s', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/Features never import each other/);
  });

  it.each([
    ['src/server/platform/crossing.ts', "import { createSubmission } from '../features/submissions/submissions';"],
    ['src/client/lib/crossing.ts', "import { ChatPane } from '@client/features/messages/chat-pane';"],
    ['src/client/components/crossing.tsx', "import { DashboardPage } from '@client/routes/dashboard-page';"],
  ])('refuses a lower layer importing a feature or a page: %s', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/lower layer never imports/);
  });

  it.each([
    ['src/client/entities/submission/crossing.tsx', "import { useAdminSubmissions } from '@client/features/admin/admin-queries';"],
    ['src/client/entities/message/crossing.tsx', "import { DashboardPage } from '../../routes/dashboard-page';"],
  ])('refuses an entity importing a feature or a page: %s', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/lower layer never imports/);
  });

  it.each([
    ['src/client/lib/crossing.ts', "import { useSubmissions } from '@client/entities/submission/submission-queries';"],
    ['src/client/components/crossing.tsx', "import { StatusBadge } from '../entities/submission/status-badge';"],
  ])('refuses lib or components importing an entity: %s', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/never import src\/client\/entities/);
  });

  it('allows an entity the layers below it and the shared code', async () => {
    const code = "import { Button } from '@client/components/ui/button';\nimport { apiRequest } from '@client/lib/api';\nimport { statusLabel } from '@shared/submissions';\nimport { useProduction } from './production-queries';";
    expect(await restrictedImports('src/client/entities/submission/fine.tsx', code)).toEqual([]);
  });

  it.each([
    ['src/server/features/admin/fine.ts', "import { deleteSubmissionRows } from '../../domain/submission/submission-deletion';\nimport { toSubmission } from '../../domain/submission/to-submission';\nimport { x } from './admin-submissions';"],
    ['src/server/features/admin/fine-shared.ts', "import { SUBMISSION_STATUSES } from '@shared/submissions';"],
    ['src/client/features/admin/fine.tsx', "import { SendMessageDialog } from '@client/entities/message/send-message-dialog';\nimport { useSubmissions } from '@client/entities/submission/submission-queries';"],
    ['src/client/routes/fine.tsx', "import { SubmissionsSection } from '@client/features/dashboard/submissions-section';\nimport { SocialLinksCard } from '@client/features/profile/social-links-card';"],
  ])('allows a feature its own files, the layers below, and the app layer everything: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });

  it.each([
    ['src/server/platform/crossing.ts', "import { EMAIL_KINDS } from '../domain/email/email-kinds';"],
    ['src/server/platform/email/crossing.ts', "import { toSubmission } from '@server/domain/submission/to-submission';"],
  ])('refuses the platform importing the domain: %s', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/never imports the domain/);
  });

  it.each([
    ['src/server/domain/crossing.ts', "import { createSubmission } from '../features/submissions/submissions';"],
    ['src/server/domain/submission/crossing.ts', "import { adminRoutes } from '@server/features/admin/routes';"],
  ])('refuses the domain importing a feature: %s', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/lower layer never imports/);
  });

  it.each([
    ['src/server/domain/submission/fine.ts', "import type { Tx } from '../../platform/db/client';\nimport { SUBMISSION_STATUSES } from '@shared/submissions';\nimport { EMAIL_KINDS } from '../email/email-kinds';"],
    ['src/server/features/admin/fine-domain.ts', "import { toSubmission } from '../../domain/submission/to-submission';"],
  ])('allows the domain the platform and shared code, and features the domain: %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });

  it('refuses an import cycle, and passes the same module without it', async () => {
    // ids.ts is imported by the transition; importing the transition back closes a loop.
    const file = 'src/server/platform/ids.ts';
    const found = await cycles(file, "import { transitionSubmissions } from '../domain/submission/transition';\nexport const x = transitionSubmissions;");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/Dependency cycle/);
    expect(await cycles(file, "import { SUBMISSION_STATUSES } from '@shared/submissions';\nexport const x = SUBMISSION_STATUSES;")).toEqual([]);
  });

  it('keeps server and client apart', async () => {
    expect(await restrictedImports('src/client/features/admin/x.tsx', "import { buildApp } from '@server/app';")).toHaveLength(1);
    expect(await restrictedImports('src/server/features/admin/x.ts', "import { api } from '@client/lib/api';")).toHaveLength(1);
  });
});
