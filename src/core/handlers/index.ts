/**
 * Every handler type by its `type` in the plugin file format. Adding one: a folder with its spec
 * type and a HandlerType, an entry here, and its branch of schemas/tool-plugin.schema.json.
 */
import { codeHandler } from './code/handler';
import type { CodeHandlerSpec } from './code/spec';
import { fileReadHandler } from './file-read/handler';
import type { FileReadHandlerSpec } from './file-read/spec';
import type { HandlerType } from './handler';
import { httpHandler } from './http/handler';
import type { HttpHandlerSpec } from './http/spec';
import { shellHandler } from './shell/handler';
import type { ShellHandlerSpec } from './shell/spec';

/** Any handler spec, told apart by `type`. */
export type HandlerSpec = ShellHandlerSpec | HttpHandlerSpec | FileReadHandlerSpec | CodeHandlerSpec;

const HANDLER_TYPES: { readonly [K in HandlerSpec['type']]: HandlerType<Extract<HandlerSpec, { type: K }>> } = {
  shell: shellHandler,
  http: httpHandler,
  'file-read': fileReadHandler,
  code: codeHandler,
};

/** The handler type of a spec (its `type` was validated by the schema before this is called). */
export function handlerTypeOf(spec: HandlerSpec): HandlerType<HandlerSpec> {
  return HANDLER_TYPES[spec.type];
}
