/**
 * The text a person reviews before approving a plugin file: read again from disk, and given out
 * only when its bytes are still the ones that loaded, so what is shown is exactly what the
 * approval (keyed by the loaded content's hash) covers.
 */
import { contentHashOf } from './load-plugin-file';
import { readPluginBytes } from './scan-directories';

/**
 * The file's text if its bytes still hash to `contentHash`, else undefined (changed, gone, or
 * swapped for a pipe or a device: then it is not what was loaded either).
 */
export async function textIfUnchanged(file: string, contentHash: string): Promise<string | undefined> {
  const bytes = await readPluginBytes(file).catch(() => undefined);
  if (bytes === undefined || contentHashOf(bytes) !== contentHash) {
    return undefined;
  }
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}
