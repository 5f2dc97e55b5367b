// The read path's two ways to the file system: direct calls, which must behave as the thread
// pool's (same bytes, same errors, a FIFO never waited on), and the switch to the pool for a while
// after a slow call, so that a slow file system never holds the event loop for long.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { FileAccess } from '../../../src/core/platform/file-access';
import { DIRECT_READ_MAX_BYTES, DirectWhileFast, POOLED_ACCESS, SLOW_CALL_MS, SLOW_CALLS, SLOW_FOR_MS, SLOW_WINDOW_MS, hostFileAccess } from '../../../src/core/platform/file-access';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('wt-file-access-');
});
afterEach(() => dir.cleanup());

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** All of a file through `access`: its real path, stat, fstat and bytes (read in `chunk`-byte reads). */
async function readAll(access: FileAccess, file: string, chunk: number): Promise<{ real: string; size: number; bytes: Buffer }> {
  const real = await access.realpath(file);
  const { size } = await access.stat(real);
  const handle = await access.open(real, READ_FLAGS);
  try {
    assert.equal((await handle.stat()).size, size);
    const parts: Buffer[] = [];
    for (;;) {
      const buffer = Buffer.alloc(chunk);
      const { bytesRead } = await handle.read(buffer, 0, chunk, null);
      if (bytesRead === 0) {
        break;
      }
      parts.push(buffer.subarray(0, bytesRead));
    }
    return { real, size, bytes: Buffer.concat(parts) };
  } finally {
    await handle.close();
  }
}

describe('direct calls behave as the thread pool\'s', () => {
  test('the same real path, sizes and bytes, in small reads and in reads past the direct limit', async () => {
    const content = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, index) => index % 251));
    mkdirSync(path.join(dir.path, 'real'));
    writeFileSync(path.join(dir.path, 'real', 'data.bin'), content);
    symlinkSync(path.join(dir.path, 'real'), path.join(dir.path, 'link'), 'dir');
    const file = path.join(dir.path, 'link', 'data.bin');
    const direct = new DirectWhileFast().direct;
    for (const chunk of [16 * 1024, DIRECT_READ_MAX_BYTES + 1]) {
      const [viaPool, viaKernel] = [await readAll(POOLED_ACCESS, file, chunk), await readAll(direct, file, chunk)];
      assert.deepEqual({ ...viaKernel, bytes: undefined }, { ...viaPool, bytes: undefined });
      assert.ok(viaKernel.bytes.equals(content), `chunk ${chunk}`);
      assert.ok(viaPool.bytes.equals(content), `chunk ${chunk}`);
    }
  });

  test('the same errors, as rejections with their codes', async () => {
    const direct = new DirectWhileFast().direct;
    const missing = path.join(dir.path, 'missing.txt');
    for (const access of [POOLED_ACCESS, direct]) {
      await assert.rejects(access.realpath(missing), { code: 'ENOENT' });
      await assert.rejects(access.stat(missing), { code: 'ENOENT' });
      await assert.rejects(access.open(missing, READ_FLAGS), { code: 'ENOENT' });
    }
  });

  test('a named pipe nobody writes is opened and read without waiting', { skip: process.platform === 'win32' ? 'no named pipes in the file system' : false }, async () => {
    const fifo = path.join(dir.path, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const handle = await new DirectWhileFast().direct.open(fifo, READ_FLAGS);
    try {
      assert.equal((await handle.stat()).isFIFO(), true);
      const read = await handle.read(Buffer.alloc(16), 0, 16, null).then(
        ({ bytesRead }) => `read ${bytesRead}`,
        (error: NodeJS.ErrnoException) => error.code,
      );
      assert.match(String(read), /^(read 0|EAGAIN)$/);
    } finally {
      await handle.close();
    }
  });
});

describe('a slow file system is asked through the pool', () => {
  /** A DirectWhileFast on a clock of its own, and a "system call" that takes `ms` on it. */
  function onOwnClock(): { calls: DirectWhileFast; take: (ms: number, allowanceMs?: number) => Promise<number>; wait: (ms: number) => void } {
    let now = 1_000;
    const calls = new DirectWhileFast(() => now);
    return {
      calls,
      take: (ms, allowanceMs) => calls.call(() => {
        now += ms;
        return ms;
      }, allowanceMs),
      wait: (ms) => {
        now += ms;
      },
    };
  }

  test(`${SLOW_CALLS} calls slower than SLOW_CALL_MS within SLOW_WINDOW_MS send the calls of the next SLOW_FOR_MS through the pool, then they go direct again`, async () => {
    const { calls, take, wait } = onOwnClock();
    assert.equal(calls.access(), calls.direct);
    await take(SLOW_CALL_MS);
    assert.equal(calls.access(), calls.direct, 'a call of SLOW_CALL_MS is not slow');
    for (let slow = 1; slow < SLOW_CALLS; slow++) {
      await take(SLOW_CALL_MS + 1);
      assert.equal(calls.access(), calls.direct, `${slow} slow call(s): a busy machine's, maybe`);
    }
    // A slow call that failed counts too.
    await assert.rejects(calls.call(() => {
      wait(SLOW_CALL_MS * 3);
      throw new Error('EIO');
    }), /EIO/);
    assert.equal(calls.access(), POOLED_ACCESS);
    wait(SLOW_FOR_MS - 1);
    assert.equal(calls.access(), POOLED_ACCESS);
    wait(1);
    assert.equal(calls.access(), calls.direct);
  });

  test('slow calls further apart than SLOW_WINDOW_MS, and a large read within its allowance, do not', async () => {
    const { calls, take, wait } = onOwnClock();
    for (let slow = 0; slow < SLOW_CALLS * 2; slow++) {
      await take(SLOW_CALL_MS * 2);
      wait(SLOW_WINDOW_MS / (SLOW_CALLS - 1));
    }
    assert.equal(calls.access(), calls.direct);
    for (let read = 0; read < SLOW_CALLS * 2; read++) {
      await take(SLOW_CALL_MS + 9, 10);
    }
    assert.equal(calls.access(), calls.direct, 'a megabyte read in 13 ms is not slow');
  });

  test('the process asks directly while its file system is fast (this machine\'s is)', () => {
    assert.notEqual(hostFileAccess(), POOLED_ACCESS);
  });
});
