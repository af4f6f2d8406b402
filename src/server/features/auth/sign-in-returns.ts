/**
 * When to tell a refused sign-in to come back (docs/decisions/203-a-sign-in-burst-and-any-load-tool.md).
 * A sign-in whose hash would wait too long is refused with 503 + Retry-After (decision 054). Told
 * the same wait, every refused client of a burst came back in the same second: the queue took
 * the first few again and refused the rest, while between those herds the hashing process
 * idled with clients asleep on their Retry-After. Instead each refusal books the next free place
 * after the ones already promised: the k-th refused sign-in of a burst is told to come back k
 * hashes' time after the one before it, and a little before its place comes up, so it finds a
 * short queue ahead (never empty: the hashes keep running) and is admitted. The bookings are a
 * point in time: once it has passed, they start again from the queue as it is.
 */
export class SignInReturns {
  /** Until when the places promised to refused sign-ins reach. */
  private bookedUntil = 0;

  /**
   * `leadMs`: how long before its place a refused sign-in should be back (half the longest wait
   * admitted lets it in with hashes still queued ahead of it).
   */
  constructor(private readonly leadMs: number) {}

  /**
   * Books the next place for a sign-in refused at `now`, when a hash queued now would wait
   * `waitMs` and each hash adds `perHashMs` to the queue (a hash's time over the hashes at once);
   * answers how long the client should wait before trying again (at least a second).
   */
  book(now: number, waitMs: number, perHashMs: number): number {
    const place = Math.max(now + waitMs, this.bookedUntil);
    this.bookedUntil = place + perHashMs;
    return Math.max(1000, place - this.leadMs - now);
  }
}
