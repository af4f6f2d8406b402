import { describe, expect, it } from 'vitest';
import { SignInReturns } from './sign-in-returns';

describe('SignInReturns: when a refused sign-in is told to come back (decision 203)', () => {
  it('spreads the sign-ins refused at one moment one hash apart, each a little before its place', () => {
    const returns = new SignInReturns(1500);
    // The queue would keep a new hash 4 s; each hash adds 100 ms to it.
    const told = Array.from({ length: 5 }, () => returns.book(10_000, 4000, 100));
    expect(told).toEqual([2500, 2600, 2700, 2800, 2900]);
  });

  it('never tells a client to come back in less than a second', () => {
    const returns = new SignInReturns(1500);
    expect(returns.book(0, 2000, 100)).toBe(1000);
  });

  it('starts from the queue as it is once the booked places have passed', () => {
    const returns = new SignInReturns(1500);
    for (let i = 0; i < 10; i++) returns.book(0, 4000, 100);
    // Booked until 5 s; at 60 s those sign-ins are long back, and a new refusal waits only for the queue.
    expect(returns.book(60_000, 4000, 100)).toBe(2500);
  });

  it('books behind the promised places while they are still ahead', () => {
    const returns = new SignInReturns(1500);
    for (let i = 0; i < 30; i++) returns.book(0, 4000, 100);
    // 30 places promised from 4 s to 7 s; one second later the queue alone would say 4 s, but the places reach to 7 s.
    expect(returns.book(1000, 4000, 100)).toBe(7000 - 1500 - 1000);
  });
});
