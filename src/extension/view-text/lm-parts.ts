/**
 * What the lm door hands VS Code for a result with content parts, decided without `vscode`: each
 * image becomes a data part where this VS Code has `LanguageModelDataPart` (the stable API gained
 * it after 1.101, the version this extension is typed against and supports, so it is looked for at
 * run time), and everything else is text: text parts as they are, audio and resources described,
 * and an image described with why it is not attached where VS Code has no data parts.
 */
import { describePart } from '../../core/content/parts';
import type { ContentPart } from '../../core/types';

/** One part for the lm result: text, or an image's bytes. */
export type LmPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'image'; readonly bytes: Uint8Array; readonly mimeType: string };

/** The note beside an image that could not be attached. */
export const NO_DATA_PARTS = 'not attached: this VS Code\'s language model tool API has no LanguageModelDataPart (it came after VS Code 1.101); update VS Code to let the model see it';

/** The parts of `content` for the lm result, images as data where `canAttachImages`. */
export function lmPartsOf(content: readonly ContentPart[], canAttachImages: boolean): LmPart[] {
  return content.map((part): LmPart => {
    if (part.type === 'image' && canAttachImages) {
      return { kind: 'image', bytes: Buffer.from(part.data, 'base64'), mimeType: part.mimeType };
    }
    const text = describePart(part);
    return { kind: 'text', text: part.type === 'image' ? `${text.slice(0, -1)}, ${NO_DATA_PARTS}]` : text };
  });
}
