/**
 * A resource's MIME type when its entry names none (guessed from the file name's extension), and
 * whether contents of a type are served as text or as a base64 `blob`.
 */
import { isUtf8 } from 'node:buffer';
import * as path from 'node:path';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.jsonc': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.py': 'text/x-python',
  '.rs': 'text/x-rust',
  '.go': 'text/x-go',
  '.java': 'text/x-java',
  '.c': 'text/x-c',
  '.h': 'text/x-c',
  '.cpp': 'text/x-c++',
  '.sh': 'text/x-shellscript',
  '.sql': 'application/sql',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
};

/** What a file of unknown kind is served as (its bytes decide text or blob, see isTextual). */
export const UNKNOWN_MIME_TYPE = 'application/octet-stream';

/** The MIME type of a file name by its extension, else application/octet-stream. */
export function mimeTypeOf(fileName: string): string {
  return BY_EXTENSION[path.extname(fileName).toLowerCase()] ?? UNKNOWN_MIME_TYPE;
}

/** Types whose contents are text whatever their top-level type says. */
const TEXT_APPLICATION = /^application\/(json|xml|yaml|toml|sql|javascript|x-sh|graphql|ld\+json)$|\+(json|xml|yaml)$/;

/**
 * Whether contents are served as `text`: a text type (text/*, JSON, XML, YAML, ...) or an unknown
 * type whose bytes are UTF-8; everything else (images, audio, PDFs, bytes that are not UTF-8) is
 * a base64 `blob`, since text would corrupt it.
 */
export function isTextual(mimeType: string, bytes: Uint8Array): boolean {
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.startsWith('text/') || TEXT_APPLICATION.test(type)) {
    return isUtf8(bytes);
  }
  return type === UNKNOWN_MIME_TYPE && isUtf8(bytes) && !bytes.includes(0);
}
