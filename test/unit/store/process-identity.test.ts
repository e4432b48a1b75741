/**
 * Liveness of a lock's holder recorded by an older build (a pid, no start time): a live process
 * that started after the lock was taken has reused the pid, and is not the holder.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../../src/store/process-identity.js';

describe.runIf(process.platform === 'linux')('isAlive for an owner without a start time', () => {
  it('tells a pid reused by a process started after the lock from the holder itself', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const pid = child.pid!;
      // The lock was taken an hour ago by whoever had this pid then: not this process.
      expect(isAlive(pid, undefined, new Date(Date.now() - 3_600_000))).toBe(false);
      // Taken after this process started: it is the holder.
      expect(isAlive(pid, undefined, new Date(Date.now() + 60_000))).toBe(true);
      expect(isAlive(pid)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
