import { randomBytes, scryptSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HashingProcess } from './hashing-process';

/** A cheap cost: these tests are about the helper, not about scrypt's strength. */
const options = { N: 1024, r: 8, p: 1 };
const task = (password: string, salt = randomBytes(16)) => ({ password, salt, keyLength: 32, options });

const helper = new HashingProcess(2);
afterAll(() => helper.stop());

describe('the password hashing process (decision 187)', () => {
  it('answers what scrypt in the server itself answers, so every stored hash still verifies', async () => {
    const salt = randomBytes(16);
    const key = await helper.hash(task('correct horse battery staple', salt));
    expect(key).toEqual(scryptSync('correct horse battery staple', salt, 32, options));
  });

  it('gives each of several hashes at once its own answer', async () => {
    const tasks = Array.from({ length: 6 }, (_, i) => task(`password ${i}`));
    const keys = await Promise.all(tasks.map((t) => helper.hash(t)));
    keys.forEach((key, i) => expect(key).toEqual(scryptSync(tasks[i]!.password, tasks[i]!.salt, 32, options)));
  });

  it('runs apart from the server, with none of its environment, at a lower priority, its malloc told to keep memory', async () => {
    await helper.hash(task('warm'));
    const pid = helper.pid!;
    expect(pid).not.toBe(process.pid);
    // Node's own IPC variables aside, only the malloc setting (glibc splits its text in place).
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((entry) => entry && !entry.startsWith('NODE_CHANNEL_'));
    const variables = environment.filter((entry) => /^[A-Z_]+=/.test(entry));
    expect(variables.map((entry) => entry.split('=')[0]).sort()).toEqual(['GLIBC_TUNABLES', 'UV_THREADPOOL_SIZE']);
    expect(variables).toContain('UV_THREADPOOL_SIZE=2');
    expect(environment.join(':')).toMatch(/GLIBC_TUNABLES=glibc\.malloc\.arena_max=1:glibc\.malloc\.mmap_threshold=\d+:glibc\.malloc\.trim_threshold=\d+/);
    // Field 19 of /proc/<pid>/stat is the nice value.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])).toBe(10);
  });

  it('fails the hashes under way when the process dies, and starts a new one for the next', async () => {
    await helper.hash(task('warm'));
    const first = helper.pid!;
    // Costly enough to be under way when the process is killed.
    const underWay = helper.hash({ ...task('slow'), options: { N: 2 ** 16, r: 8, p: 1, maxmem: 256 * 1024 * 1024 } });
    process.kill(first, 'SIGKILL');
    await expect(underWay).rejects.toThrow(/hashing process stopped/);
    const salt = randomBytes(16);
    await expect(helper.hash(task('again', salt))).resolves.toEqual(scryptSync('again', salt, 32, options));
    expect(helper.pid).not.toBe(first);
  });

  it('passes on scrypt’s own refusal as an error', async () => {
    await expect(helper.hash({ ...task('too costly'), options: { N: 2 ** 20, r: 8, p: 1, maxmem: 1024 } })).rejects.toThrow(/memory/i);
    await expect(helper.hash(task('still fine'))).resolves.toHaveLength(32);
  });
});
