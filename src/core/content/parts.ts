/**
 * Content parts (types.ts ContentPart): checking one that came from elsewhere (a code tool's
 * module, the sandbox's channel), sizing it, and saying it in text for the readers of text alone.
 * Pure.
 */
import type { ContentPart, ToolResult } from '../types';

/** `type/subtype` as MIME types are written (RFC 6838 names, lower or upper case). */
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether `mimeType` is a MIME type of the kind (`image/...` for image parts, `audio/...` for audio). */
export function isMediaType(mimeType: string, kind: 'image' | 'audio'): boolean {
  return MIME_TYPE.test(mimeType) && mimeType.toLowerCase().startsWith(`${kind}/`);
}

/** The number of bytes `data` decodes to, or undefined when it is not standard padded base64. */
export function base64Bytes(data: string): number | undefined {
  if (data.length % 4 !== 0 || !BASE64.test(data)) {
    return undefined;
  }
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/** "312 bytes", "12.3 KB", "4.1 MB": sizes in the text that stands in for a part. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} bytes`;
  }
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The bytes a part carries: its text, or what its base64 decodes to. */
export function partBytes(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return Buffer.byteLength(part.text, 'utf8');
    case 'image':
    case 'audio':
      return base64Bytes(part.data) ?? part.data.length;
    case 'resource':
      return 'text' in part.resource ? Buffer.byteLength(part.resource.text, 'utf8') : (base64Bytes(part.resource.blob) ?? part.resource.blob.length);
    case 'resource_link':
      return 0;
  }
}

/** A part in words: text as it is, the rest described (`[image/png, 12.3 KB]`), never base64. */
export function describePart(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.mimeType}, ${formatSize(partBytes(part))}]`;
    case 'resource': {
      const { resource } = part;
      const type = resource.mimeType === undefined ? '' : `, ${resource.mimeType}`;
      return 'text' in resource ? `[resource ${resource.uri}${type}]\n${resource.text}` : `[resource ${resource.uri}${type}, ${formatSize(partBytes(part))}]`;
    }
    case 'resource_link':
      return `[link ${part.name}: ${part.uri}${part.mimeType === undefined ? '' : `, ${part.mimeType}`}]`;
  }
}

/** The parts as one text, each on its own line(s): the `text` of a result that has `content`. */
export function textOfParts(parts: readonly ContentPart[]): string {
  return parts.map(describePart).join('\n');
}

/** A successful result made of parts; its text is `text`, else the parts described. */
export function contentResult(parts: readonly ContentPart[], structured?: Readonly<Record<string, unknown>>, text = textOfParts(parts)): ToolResult {
  return { text, isError: false, content: parts, ...(structured === undefined ? {} : { structured }) };
}

/** One image or audio part from bytes. */
export function mediaPart(kind: 'image' | 'audio', bytes: Uint8Array, mimeType: string): ContentPart {
  return { type: kind, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), mimeType };
}

/** What a part of each type has, for the messages that say what is wrong with one. */
export const PART_SHAPES =
  '{ type: "text", text }, { type: "image" | "audio", data: <base64>, mimeType }, ' +
  '{ type: "resource", resource: { uri, mimeType?, text | blob: <base64> } }, { type: "resource_link", uri, name, mimeType?, description? }';

/**
 * Why `value` is not a content part, naming where (`content[2].data`), or undefined when it is.
 * Checked where parts come from code that is not ours: a code tool's module, as its result
 * crosses the sandbox's channel.
 */
export function contentPartProblem(value: unknown, at: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${at} is not an object`;
  }
  const part = value as Record<string, unknown>;
  const string = (key: string, where: Record<string, unknown> = part, path = `${at}.${key}`): string | undefined =>
    typeof where[key] === 'string' ? undefined : `${path} must be a string${where[key] === undefined ? ' (it is missing)' : ''}`;
  const allowed = (keys: readonly string[], where: Record<string, unknown> = part, path = at): string | undefined => {
    const extra = Object.keys(where).filter((key) => !keys.includes(key));
    return extra.length === 0 ? undefined : `${path} has ${extra.map((key) => `"${key}"`).join(', ')}, which a part of this type does not have`;
  };
  switch (part['type']) {
    case 'text':
      return string('text') ?? allowed(['type', 'text']);
    case 'image':
    case 'audio': {
      const kind = part['type'];
      const problem = string('mimeType') ?? string('data') ?? allowed(['type', 'data', 'mimeType']);
      if (problem !== undefined) {
        return problem;
      }
      if (!isMediaType(part['mimeType'] as string, kind)) {
        return `${at}.mimeType is "${String(part['mimeType']).slice(0, 60)}", not a MIME type of ${kind === 'image' ? 'an image (image/png, image/jpeg, ...)' : 'audio (audio/wav, audio/mpeg, ...)'}`;
      }
      return base64Bytes(part['data'] as string) === undefined ? `${at}.data is not base64 (standard alphabet, padded with "=")` : undefined;
    }
    case 'resource':
      return resourceProblem(part['resource'], `${at}.resource`) ?? allowed(['type', 'resource']);
    case 'resource_link':
      return (
        string('uri') ??
        string('name') ??
        (part['mimeType'] === undefined ? undefined : string('mimeType')) ??
        (part['description'] === undefined ? undefined : string('description')) ??
        allowed(['type', 'uri', 'name', 'mimeType', 'description'])
      );
    default:
      return `${at}.type is ${JSON.stringify(part['type']) ?? 'missing'}: a part is one of ${PART_SHAPES}`;
  }
}

function resourceProblem(value: unknown, at: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${at} must be an object { uri, mimeType?, text | blob }`;
  }
  const resource = value as Record<string, unknown>;
  if (typeof resource['uri'] !== 'string' || resource['uri'] === '') {
    return `${at}.uri must be a non-empty string`;
  }
  if (resource['mimeType'] !== undefined && (typeof resource['mimeType'] !== 'string' || !MIME_TYPE.test(resource['mimeType']))) {
    return `${at}.mimeType must be a MIME type such as "text/plain"`;
  }
  const hasText = typeof resource['text'] === 'string';
  const hasBlob = typeof resource['blob'] === 'string';
  if (hasText === hasBlob) {
    return `${at} must have exactly one of "text" (a string) and "blob" (base64)`;
  }
  if (hasBlob && base64Bytes(resource['blob'] as string) === undefined) {
    return `${at}.blob is not base64 (standard alphabet, padded with "=")`;
  }
  const extra = Object.keys(resource).filter((key) => !['uri', 'mimeType', 'text', 'blob'].includes(key));
  return extra.length === 0 ? undefined : `${at} has ${extra.map((key) => `"${key}"`).join(', ')}, which a resource does not have`;
}
