import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { profileSchema, socialLinksSchema } from '@shared/auth';
import type { Db } from '../../platform/db/client';
import { users } from '../../platform/db/schema';
import { parseInput } from '../../platform/errors';
import { toPublicUser } from '../../platform/public-user';
import { requireUser, userOf } from '../../platform/sessions';

/** The artist profile and social links (CONTRACT §3); each answers the updated user. */
export async function profileRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.addHook('preHandler', requireUser);

  app.put('/api/profile', async (request) => {
    const input = parseInput(profileSchema, request.body);
    const user = await updateUser(db, userOf(request).id, { ...input, profileSetupComplete: true });
    await app.sessions.forgetUser(user.id);
    return toPublicUser(user);
  });

  // The first-visit prompt was closed: it never opens by itself again, on any device (idempotent).
  app.post('/api/profile/prompt-dismissal', async (request) => {
    const current = userOf(request);
    const user = current.profilePromptDismissedAt
      ? current
      : await updateUser(db, current.id, { profilePromptDismissedAt: new Date() });
    await app.sessions.forgetUser(user.id);
    return toPublicUser(user);
  });

  app.put('/api/profile/social-links', async (request) => {
    const input = parseInput(socialLinksSchema, request.body);
    const user = await updateUser(db, userOf(request).id, input);
    await app.sessions.forgetUser(user.id);
    return toPublicUser(user);
  });
}

async function updateUser(db: Db, userId: string, values: Partial<typeof users.$inferInsert>) {
  const [user] = await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  return user!;
}
