// @ts-check
/**
 * The password hashing process (features/auth/hashing-process.ts starts it): scrypt, one message
 * per hash, `{id, password, salt, keyLength, options}` → `{id, key}` or `{id, error}`. A process
 * of its own, at a lower CPU priority, whose glibc malloc keeps the 32 MiB a hash needs instead of
 * mapping and unmapping them each time (docs/decisions/187-password-hashing-process.md). Plain
 * JavaScript: it starts without the TypeScript loader the server runs under.
 */
import { scrypt } from 'node:crypto';
import { setPriority } from 'node:os';

try {
  // Before libuv's threads exist: they inherit it.
  setPriority(10);
} catch {
  // Not allowed here: hashes run at the usual priority.
}

process.on('message', (/** @type {any} */ message) => {
  const answer = (/** @type {Error | null} */ error, /** @type {Buffer | undefined} */ key) =>
    process.send?.(error ? { id: message.id, error: error.message } : { id: message.id, key });
  try {
    scrypt(message.password, message.salt, message.keyLength, message.options, answer);
  } catch (error) {
    // Options scrypt refuses outright (too much memory…) throw here rather than reach the callback.
    answer(error instanceof Error ? error : new Error(String(error)));
  }
});
// The server has gone: nothing is left to hash for.
process.on('disconnect', () => process.exit(0));
