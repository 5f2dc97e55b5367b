// Which file system a real path lies on, from the kernel's mount table: the longest mount point
// that holds it, with the kernel's escapes read back; only disk and memory file systems count as
// local; the table is read again once it is old.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MountTable, REREAD_MS, fileSystemOf, parseMountInfo } from '../../../src/core/platform/local-mounts';

const MOUNTINFO = [
  '22 27 0:21 / /proc rw,relatime - proc proc rw',
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
  '30 27 0:40 / /home/me/work rw,relatime shared:12 - nfs4 server:/export rw,vers=4.2',
  '31 30 0:41 / /home/me/work/local\\040disk rw - ext4 /dev/vdb rw',
  '32 27 0:42 / /mnt/c rw,noatime - 9p drvfs rw',
  '33 27 0:43 / /home/me/sshfs rw - fuse.sshfs me@host: rw',
  '',
].join('\n');

describe('the mount table', () => {
  test('the longest mount point holding a path gives its type; escaped spaces are read back', () => {
    const mounts = parseMountInfo(MOUNTINFO);
    assert.equal(fileSystemOf('/home/me/project/a.ts', mounts), 'ext4');
    assert.equal(fileSystemOf('/home/me/work', mounts), 'nfs4');
    assert.equal(fileSystemOf('/home/me/work/src/a.ts', mounts), 'nfs4');
    assert.equal(fileSystemOf('/home/me/work/local disk/a.ts', mounts), 'ext4');
    assert.equal(fileSystemOf('/home/me/workshop/a.ts', mounts), 'ext4', 'a sibling that starts with the same letters');
    assert.equal(fileSystemOf('/mnt/c/Users/me/a.ts', mounts), '9p');
    assert.equal(fileSystemOf('/proc/self/status', mounts), 'proc');
  });

  test('only disk and memory file systems are local; the table is read again after REREAD_MS', () => {
    let now = 0;
    let reads = 0;
    let text = MOUNTINFO;
    const table = new MountTable(() => {
      reads += 1;
      return text;
    }, () => now);
    assert.equal(table.isLocal('/home/me/project/a.ts'), true);
    assert.equal(table.isLocal('/home/me/work/local disk/a.ts'), true);
    for (const remote of ['/home/me/work/a.ts', '/mnt/c/a.ts', '/home/me/sshfs/a.ts', '/proc/self/status']) {
      assert.equal(table.isLocal(remote), false, remote);
    }
    assert.equal(reads, 1);
    // A network file system mounted over the project meanwhile is seen once the table is old.
    text = `${MOUNTINFO}40 27 0:50 / /home/me/project rw - cifs //server/share rw\n`;
    now += REREAD_MS;
    assert.equal(table.isLocal('/home/me/project/a.ts'), true, 'not yet read again');
    now += 1;
    assert.equal(table.isLocal('/home/me/project/a.ts'), false);
    assert.equal(reads, 2);
  });

  test('without a mount table (not Linux) nothing is local', () => {
    assert.equal(new MountTable(() => undefined).isLocal('/home/me/project/a.ts'), false);
  });
});
