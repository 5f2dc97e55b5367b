/**
 * An answer whose text the call history has already escaped, serialized without escaping it
 * again: a call's kept output is turned into JSON once, when the call ends
 * (core/history/finished-call.ts), and the answer that carries the same text reuses it. Escaping a
 * 10 KB text costs about as much as the rest of the answer's serialization.
 *
 * The bytes are exactly JSON.stringify's: the message is serialized with a marker in the text's
 * place, and the marker's JSON, found once and only once, is replaced by the text's.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { outputJsonOf } from '../core/history/finished-call';

const MARKER = '\u0000workspace-tools: the text escaped once\u0000';
const MARKER_JSON = JSON.stringify(MARKER);

/**
 * `message` as a JSON line (newline included) when it is a result whose first content part is a
 * text the history has the JSON of; undefined otherwise, and the caller serializes it as usual.
 */
export function answerJson(message: JSONRPCMessage): string | undefined {
  const result = 'result' in message ? (message.result as Record<string, unknown>) : undefined;
  const content: unknown = result?.['content'];
  if (!Array.isArray(content) || content.length === 0) {
    return undefined;
  }
  const first: unknown = content[0];
  if (typeof first !== 'object' || first === null) {
    return undefined;
  }
  const part = first as Record<string, unknown>;
  const text = part['text'];
  const json = part['type'] === 'text' && typeof text === 'string' ? outputJsonOf(text) : undefined;
  if (json === undefined) {
    return undefined;
  }
  // Spread copies keep every key in its place, so only the text differs from the message's JSON.
  const skeleton = JSON.stringify({ ...message, result: { ...result, content: [{ ...part, text: MARKER }, ...(content as unknown[]).slice(1)] } });
  const at = skeleton.indexOf(MARKER_JSON);
  if (at === -1 || skeleton.includes(MARKER_JSON, at + 1)) {
    return undefined;
  }
  return `${skeleton.slice(0, at)}${json}${skeleton.slice(at + MARKER_JSON.length)}\n`;
}
