/**
 * Shell and http tools whose output is an image or audio (`"output": { "format": "image",
 * "mimeType": "image/png" }`): the bytes of stdout or of the response body, kept up to the
 * tool's cap and returned as one image or audio part. A media output is never cut (half an image
 * is no image): past the cap the result is an error that says how to raise it.
 */
import { contentResult, formatSize, mediaPart } from '../content/parts';
import { errorResult } from '../types';
import type { ToolResult } from '../types';

/** What a tool declares its output to be, when it is media. */
export interface MediaOutput {
  readonly kind: 'image' | 'audio';
  readonly mimeType: string;
}

/** Bytes kept up to a cap; what comes past it is only counted. */
export class MediaBytes {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes that came past the cap. */
  droppedBytes = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Uint8Array): void {
    const room = this.cap - this.kept;
    if (chunk.length > room) {
      this.droppedBytes += chunk.length - Math.max(room, 0);
      return;
    }
    this.chunks.push(Buffer.from(chunk));
    this.kept += chunk.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }

  get totalBytes(): number {
    return this.kept + this.droppedBytes;
  }
}

/**
 * The result of a run that ended well and printed (or answered) `bytes`: one media part, after
 * `note` (stderr, say) when there is one; an error result when there were none or too many.
 * `source` names where the bytes came from ("The command's stdout", "The response body") and
 * `capName` the setting that raises the cap.
 */
export function mediaResult(output: MediaOutput, media: MediaBytes, options: { readonly source: string; readonly cap: number; readonly capName: string; readonly note?: string }): ToolResult {
  const { source, cap, capName, note } = options;
  if (media.droppedBytes > 0) {
    return errorResult(
      `${source} is over the cap of ${formatSize(cap)} (at least ${formatSize(media.totalBytes)}); the tool declares ${output.mimeType} output, which is never cut. Raise the handler's "${capName}".`,
    );
  }
  const bytes = media.bytes();
  if (bytes.length === 0) {
    return errorResult(`${source} was empty, but the tool declares ${output.mimeType} output.${note === undefined || note === '' ? '' : `\n\n${note}`}`);
  }
  const part = mediaPart(output.kind, bytes, output.mimeType);
  return contentResult(note === undefined || note === '' ? [part] : [part, { type: 'text', text: note }]);
}
