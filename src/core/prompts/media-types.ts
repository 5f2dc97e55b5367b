/** The media types prompts embed: images by their bytes, other files by their extension. */

/** Extensions of the images a prompt's `image` message may name. */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

/** The image type of `bytes` by their signature (PNG, JPEG, GIF, WebP), else undefined. */
export function imageTypeOf(bytes: Uint8Array): string | undefined {
  const starts = (signature: readonly number[], at = 0): boolean => signature.every((byte, index) => bytes[at + index] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return 'image/png';
  }
  if (starts([0xff, 0xd8, 0xff])) {
    return 'image/jpeg';
  }
  if (starts([0x47, 0x49, 0x46, 0x38])) {
    return 'image/gif';
  }
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) {
    return 'image/webp';
  }
  return undefined;
}

const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.json': 'application/json',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
};

/** The media type of an embedded file: by its extension when text, else its image type or bytes. */
export function embeddedTypeOf(extension: string, bytes: Uint8Array, isText: boolean): string {
  if (isText) {
    return TEXT_TYPES[extension.toLowerCase()] ?? 'text/plain';
  }
  return imageTypeOf(bytes) ?? (extension.toLowerCase() === '.pdf' ? 'application/pdf' : 'application/octet-stream');
}
