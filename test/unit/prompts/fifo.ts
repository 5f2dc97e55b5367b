/** Makes a FIFO with the system's mkfifo; false where there is none (Windows). */
import { execFileSync } from 'node:child_process';

export function mkfifoSync(file: string): boolean {
  if (process.platform === 'win32') {
    return false;
  }
  execFileSync('mkfifo', [file]);
  return true;
}
