import { and, eq, sql } from 'drizzle-orm';
import type { RegisterInput, Role } from '@shared/auth';
import type { Db } from '../../platform/db/client';
import { users, type UserRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { isUniqueViolation } from '../../platform/public-user';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { queueVerificationEmail } from './email-verification';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password';


const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  return user;
}

/** POST /api/register: the account and its verification email, in one transaction. */
export async function registerLocalUser(
  db: Db,
  outbox: EmailQueue,
  input: RegisterInput,
  signal?: AbortSignal,
): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  if (await findUserByEmail(db, email)) throw apiError('email_taken');
  const password = await hashPassword(input.password, signal);
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ id: newId(), email, password, firstName: input.firstName, lastName: input.lastName })
        .returning();
      await queueVerificationEmail(tx, outbox, user!);
      return user!;
    });
  } catch (error) {
    // Two registrations for one email racing past the check above.
    if (isUniqueViolation(error)) throw apiError('email_taken');
    throw error;
  }
}

/**
 * The user whose email and password match, or null; equally slow either way. `signal`: the
 * client went away, so the password check is skipped if it has not started. `knownDevice`: the
 * browser holds this account's device cookie, and its check goes ahead of the others' (054, 173).
 */
export async function authenticate(db: Db, email: string, password: string, signal?: AbortSignal, knownDevice = false): Promise<UserRow | null> {
  const user = await findUserByEmail(db, email);
  const knownDeviceOf = knownDevice ? email.trim().toLowerCase() : undefined;
  if (!user?.password) {
    await burnPasswordCheck(password, signal, knownDeviceOf);
    return null;
  }
  return (await verifyPassword(password, user.password, signal, knownDeviceOf)) ? user : null;
}

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD at start-up: the account exists, has that password and is an admin.
 * When no account has the address, it is created, verified (the operator named the address, so no
 * banner asks the label to confirm it). When an account has it, it is made the admin only if its
 * address is verified: the account this created always is, and anyone else has proved the mailbox.
 * The address may be free again and registered by anyone (the admin moved to another address, or
 * deleted their account), so an unverified account is a stranger's and is left as it is; answers
 * null then. Its holder (the operator) can verify it with a password reset, or `npm run admin`.
 */
export async function ensureAdminAccount(db: Db, admin: { email: string; password: string }): Promise<UserRow | null> {
  const email = normaliseEmail(admin.email);
  const existing = await findUserByEmail(db, email);
  if (!existing) {
    const [created] = await db
      .insert(users)
      .values({
        id: newId(),
        email,
        password: await hashPassword(admin.password),
        firstName: 'Label',
        lastName: 'Admin',
        role: 'admin',
        emailVerified: true,
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
    // Someone registered the address meanwhile: their account is judged like any other.
    return created ?? ensureAdminAccount(db, admin);
  }
  if (!existing.emailVerified) return null;
  const samePassword = existing.password ? await verifyPassword(admin.password, existing.password) : false;
  const [user] = await db
    .update(users)
    .set({
      role: 'admin',
      ...(samePassword ? {} : { password: await hashPassword(admin.password) }),
      updatedAt: sql`now()`,
    })
    // Still the verified holder of the address it was read with.
    .where(and(eq(users.id, existing.id), eq(users.email, email), eq(users.emailVerified, true)))
    .returning();
  return user ?? null;
}

export async function setRole(db: Db, email: string, role: Role): Promise<UserRow> {
  const [user] = await db
    .update(users)
    .set({ role, updatedAt: sql`now()` })
    .where(eq(users.email, normaliseEmail(email)))
    .returning();
  if (!user) throw apiError('user_not_found', `No user with email ${email}`);
  return user;
}

export interface GoogleProfile {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
  firstName: string | undefined;
  lastName: string | undefined;
  picture: string | undefined;
}

/**
 * CONTRACT §3: the user with this Google id, else the account with the same verified email
 * (now linked), else a new account; undefined when there is none and the provider gave no email
 * to make one with (CONTRACT §23: it could not receive mail, reset a password or be linked).
 */
export async function signInWithGoogle(db: Db, profile: GoogleProfile): Promise<UserRow | undefined> {
  const [byGoogleId] = await db.select().from(users).where(eq(users.googleId, profile.sub)).limit(1);
  if (byGoogleId) {
    // Google vouches for the address the account has: it counts as verified (CONTRACT §11).
    const vouched = profile.emailVerified && profile.email !== undefined && normaliseEmail(profile.email) === byGoogleId.email;
    if (!vouched || byGoogleId.emailVerified) return byGoogleId;
    const [verified] = await db
      .update(users)
      .set({ emailVerified: true, updatedAt: sql`now()` })
      .where(eq(users.id, byGoogleId.id))
      .returning();
    return verified!;
  }

  const email = profile.email && profile.emailVerified ? normaliseEmail(profile.email) : undefined;
  if (email) {
    const byEmail = await findUserByEmail(db, email);
    if (byEmail) {
      const [linked] = await db
        .update(users)
        .set({
          googleId: profile.sub,
          // Google vouches for this address (only a verified one is linked).
          emailVerified: true,
          profileImageUrl: byEmail.profileImageUrl ?? profile.picture ?? null,
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, byEmail.id))
        .returning();
      return linked!;
    }
  }
  if (!email) return undefined;
  try {
    const [created] = await db
      .insert(users)
      .values({
        id: newId(),
        email,
        emailVerified: true,
        authProvider: 'google',
        googleId: profile.sub,
        firstName: profile.firstName ?? null,
        lastName: profile.lastName ?? null,
        profileImageUrl: profile.picture ?? null,
      })
      .returning();
    return created!;
  } catch (error) {
    // The same Google account finishing two sign-ins at once: the other one made the row.
    if (!isUniqueViolation(error)) throw error;
    const [again] = await db.select().from(users).where(eq(users.googleId, profile.sub)).limit(1);
    if (!again) throw error;
    return again;
  }
}
