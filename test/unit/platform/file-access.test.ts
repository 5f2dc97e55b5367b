// The read path's two ways to the file system (platform/file-access.ts): direct calls, which must
// behave as the thread pool's (same bytes, same errors, a FIFO never waited on), must never hold
// the event loop through a large file, and must not close a descriptor twice; the switch to the
// pool after slow calls; and which files a process reads directly at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, fstatSync, openSync, realpathSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { FileAccess } from '../../../src/core/platform/file-access';
import { DIRECT_READ_MAX_BYTES, DirectWhileFast, POOLED_ACCESS, SLOW_CALL_MS, SLOW_CALLS, SLOW_FOR_MS, SLOW_WINDOW_MS, enableDirectReads, hostFileAccessFor } from '../../../src/core/platform/file-access';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('wt-file-access-');
});
afterEach(() => dir.cleanup());

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** All of a file through `access`: its stat, fstat and bytes (read in `chunk`-byte reads). */
async function readAll(access: FileAccess, file: string, chunk: number): Promise<{ size: number; bytes: Buffer }> {
  const { size } = await access.stat(file);
  const handle = await access.open(file, READ_FLAGS);
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
    return { size, bytes: Buffer.concat(parts) };
  } finally {
    await handle.close();
  }
}

describe('direct calls behave as the thread pool\'s', () => {
  test('the same sizes and bytes, in small reads and in reads past the direct limit', async () => {
    const content = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, index) => index % 251));
    const file = path.join(dir.path, 'data.bin');
    writeFileSync(file, content);
    const direct = new DirectWhileFast().direct;
    for (const chunk of [16 * 1024, DIRECT_READ_MAX_BYTES + 1]) {
      for (const access of [POOLED_ACCESS, direct]) {
        const { size, bytes } = await readAll(access, file, chunk);
        assert.equal(size, content.length);
        assert.ok(bytes.equals(content), `chunk ${chunk}, direct ${access.direct}`);
      }
    }
  });

  test('the same errors, as rejections with their codes', async () => {
    const direct = new DirectWhileFast().direct;
    writeFileSync(path.join(dir.path, 'file'), 'x');
    for (const access of [POOLED_ACCESS, direct]) {
      await assert.rejects(access.stat(path.join(dir.path, 'missing.txt')), { code: 'ENOENT' });
      await assert.rejects(access.open(path.join(dir.path, 'missing.txt'), READ_FLAGS), { code: 'ENOENT' });
      await assert.rejects(access.open(path.join(dir.path, 'file', 'below'), READ_FLAGS), { code: 'ENOTDIR' });
      const directory = await access.open(dir.path, READ_FLAGS);
      await assert.rejects(directory.read(Buffer.alloc(8), 0, 8, null), { code: 'EISDIR' });
      await directory.close();
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

  test('a large file read in chunks lets the event loop run between them past the direct limit', async () => {
    const file = path.join(dir.path, 'large.bin');
    writeFileSync(file, Buffer.alloc(8 * DIRECT_READ_MAX_BYTES, 0x61));
    let ticks = 0;
    const ticking = setInterval(() => {
      ticks += 1;
    }, 0);
    try {
      await readAll(new DirectWhileFast().direct, file, 64 * 1024);
    } finally {
      clearInterval(ticking);
    }
    assert.ok(ticks > 0, 'no timer ran during an 8 MB read: the loop was held throughout');
  });

  test('a second close does not close the descriptor number the system gave to the next file', async () => {
    writeFileSync(path.join(dir.path, 'a'), 'a');
    writeFileSync(path.join(dir.path, 'b'), 'b');
    const direct = new DirectWhileFast().direct;
    const first = await direct.open(path.join(dir.path, 'a'), READ_FLAGS);
    await first.close();
    const reused = openSync(path.join(dir.path, 'b'), 'r');
    try {
      await first.close();
      await assert.rejects(first.read(Buffer.alloc(1), 0, 1, null), { code: 'EBADF' });
      assert.equal(fstatSync(reused).size, 1, 'the other file\'s descriptor is still open');
    } finally {
      closeSync(reused);
    }
  });
});

describe('a slow disk is read through the pool', () => {
  /** A DirectWhileFast on a clock of its own, and a "system call" that takes `ms` on it. */
  function onOwnClock(): { calls: DirectWhileFast; take: (ms: number) => Promise<number>; wait: (ms: number) => void } {
    let now = 1_000;
    const calls = new DirectWhileFast(() => now);
    return {
      calls,
      take: (ms) => calls.call(() => {
        now += ms;
        return ms;
      }),
      wait: (ms) => {
        now += ms;
      },
    };
  }

  test(`${SLOW_CALLS} calls slower than SLOW_CALL_MS within SLOW_WINDOW_MS send the reads of the next SLOW_FOR_MS through the pool, then they go direct again`, async () => {
    const { calls, take, wait } = onOwnClock();
    assert.equal(calls.fast, true);
    await take(SLOW_CALL_MS);
    assert.equal(calls.fast, true, 'a call of SLOW_CALL_MS is not slow');
    for (let slow = 1; slow < SLOW_CALLS; slow++) {
      await take(SLOW_CALL_MS + 1);
      assert.equal(calls.fast, true, `${slow} slow call(s): the busy machine's, maybe`);
    }
    // A slow call that failed counts too.
    await assert.rejects(calls.call(() => {
      wait(SLOW_CALL_MS * 3);
      throw new Error('EIO');
    }), /EIO/);
    assert.equal(calls.fast, false);
    wait(SLOW_FOR_MS - 1);
    assert.equal(calls.fast, false);
    wait(1);
    assert.equal(calls.fast, true);
  });

  test('slow calls further apart than SLOW_WINDOW_MS do not', async () => {
    const { calls, take, wait } = onOwnClock();
    for (let slow = 0; slow < SLOW_CALLS * 2; slow++) {
      await take(SLOW_CALL_MS * 2);
      wait(SLOW_WINDOW_MS / (SLOW_CALLS - 1));
    }
    assert.equal(calls.fast, true);
  });
});

describe('which files a process reads directly', () => {
  test('none until the process turns direct reads on (the extension host never does); then files on a local disk, not /proc', { skip: process.platform !== 'linux' ? 'the mount table is read on Linux only' : false }, () => {
    const local = realpathSync(dir.path);
    assert.equal(hostFileAccessFor(local), POOLED_ACCESS);
    enableDirectReads();
    assert.equal(hostFileAccessFor(local).direct, true, `${local} is on a local disk here`);
    assert.equal(hostFileAccessFor('/proc/self/status'), POOLED_ACCESS);
  });
});
