import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { platformNamed } from '../../../src/core/platform/platform';
import { residentMemoryProbe } from '../../../src/core/platform/resident-memory';
import { watchResidentMemory } from '../../../src/core/process/memory-watch';

describe('resident memory per platform', () => {
  test('Windows has no probe: no resident cap (the heap cap and the timeout hold instead)', () => {
    assert.equal(residentMemoryProbe(platformNamed('win32')), undefined);
    let called = false;
    const stop = watchResidentMemory(process.pid, 1, () => (called = true), undefined);
    stop();
    assert.equal(called, false);
  });

  test('Linux reads /proc, macOS asks ps -o rss= (the same ps interface here): both see this process', async () => {
    for (const name of ['linux', 'darwin'] as const) {
      const probe = residentMemoryProbe(platformNamed(name));
      const mb = await probe?.read(process.pid);
      assert.ok(mb !== undefined && mb > 10 && mb < 4096, `${name}: ${String(mb)} MB`);
    }
    assert.equal(await residentMemoryProbe(platformNamed('darwin'))?.read(2 ** 22 + 12345), undefined, 'a process that is gone reads as nothing');
  });

  test('with macOS semantics, a program filling Buffers is caught by the ps probe', async () => {
    const child = spawn(process.execPath, ['-e', 'const keep = []; setInterval(() => keep.push(Buffer.alloc(16 * 1024 * 1024, 1)), 20)'], { stdio: 'ignore' });
    try {
      const resident = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the cap was never seen passed')), 20_000);
        watchResidentMemory(child.pid ?? 0, 200, (mb) => {
          clearTimeout(timer);
          resolve(mb);
        }, residentMemoryProbe(platformNamed('darwin')));
      });
      assert.ok(resident > 200, `${resident} MB`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
