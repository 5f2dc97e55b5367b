/**
 * Path rules that differ by platform: whether one path is inside another (Windows compares
 * case-insensitively, across `/` and `\`, drive letters in any case), and the names Windows gives
 * a meaning of their own, which a file tool must refuse before the file system sees them:
 * namespace prefixes (`\\?\`, `\\.\`), network shares (UNC), drive-relative paths (`C:x`),
 * alternate data streams (`a.txt:secret`, `a.txt::$DATA`), device names (`CON`, `nul`,
 * `COM1`, `con.txt`) and names ending in a dot or a space (Windows drops those, so `a.txt.`
 * opens `a.txt`). 8.3 short names (`PROGRA~1`) need no rule of their own: containment is
 * decided on real paths, and a real path has long names.
 */
import type { Platform } from './platform';

/**
 * True when `candidate` is `base` itself or below it, by the platform's path rules. Both must be
 * absolute and normalized the same way (both real paths, or both lexical). A relative result that
 * starts with a `..` segment, or an absolute one (another drive or share), is outside; a name like
 * `..foo` is a child, hence the separator check.
 */
export function isInside(base: string, candidate: string, platform: Platform): boolean {
  const relative = platform.path.relative(base, candidate);
  if (relative === '') {
    return true;
  }
  if (platform.path.isAbsolute(relative)) {
    return false;
  }
  return relative !== '..' && !relative.startsWith(`..${platform.path.sep}`);
}

/**
 * Whether two paths name the same file as far as their text tells, on a platform whose usual
 * file systems ignore case (Windows, macOS) or not: for matching a path an editor gives back to
 * one we hold, never for containment (which compares real paths).
 */
export function samePathName(a: string, b: string, platform: Platform): boolean {
  const [left, right] = [platform.path.normalize(a), platform.path.normalize(b)];
  return platform.caseInsensitiveNames ? left.toLowerCase() === right.toLowerCase() : left === right;
}

/** Device names, whatever extension follows (`con.txt` is the console too); superscripts included. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$|clock\$)$/i;

/**
 * Why `requested` names something other than a plain file on Windows, worded for the model, or
 * undefined when it is a plain path (whether it stays inside is decided afterwards). Only Windows
 * has these rules: elsewhere `con.txt` and `a:b` are ordinary names.
 */
export function specialPathProblem(requested: string, platform: Platform): string | undefined {
  if (!platform.windows) {
    return undefined;
  }
  const backslashed = requested.replace(/\//g, '\\');
  if (/^\\\\[?.]\\|^\\\?\?\\/.test(backslashed)) {
    return `Path "${requested}" uses a Windows namespace prefix (\\\\?\\ or \\\\.\\); give a path relative to the allowed directory.`;
  }
  if (backslashed.startsWith('\\\\')) {
    return `Path "${requested}" names a network share; give a path relative to the allowed directory.`;
  }
  if (/^[A-Za-z]:(?!\\)/.test(backslashed)) {
    return `Path "${requested}" is relative to a drive's current directory (write "${requested.slice(0, 2)}\\..." or a relative path).`;
  }
  const rest = /^[A-Za-z]:/.test(backslashed) ? backslashed.slice(2) : backslashed;
  if (rest.includes(':')) {
    return `Path "${requested}" names an alternate data stream (":" after a file name); give the file's own path.`;
  }
  for (const segment of rest.split('\\')) {
    const problem = segmentProblem(segment);
    if (problem !== undefined) {
      return `Path "${requested}" ${problem}.`;
    }
  }
  return undefined;
}

function segmentProblem(segment: string): string | undefined {
  if (segment === '' || segment === '.' || segment === '..') {
    return undefined;
  }
  if (/[. ]$/.test(segment)) {
    return `has a name ending in a dot or a space ("${segment}"), which Windows drops, so it would open another file`;
  }
  // Windows looks at the name before the first dot, trailing spaces removed.
  const stem = (segment.split('.')[0] ?? '').replace(/ +$/, '');
  if (DEVICE_NAME.test(stem)) {
    return `names the Windows device ${stem.toUpperCase()} ("${segment}"), not a file`;
  }
  return undefined;
}
