import type { HandlerSpec } from '../plugins/plugin-types';
import { fileReadHandler } from './file-read';
import type { HandlerStrategy } from './handler-types';
import { httpHandler } from './http';
import { shellHandler } from './shell';

const STRATEGIES = {
  shell: shellHandler,
  http: httpHandler,
  'file-read': fileReadHandler,
} as const;

/** The strategy for a handler spec's `type` (validated by the schema before this is called). */
export function handlerStrategy(spec: HandlerSpec): HandlerStrategy<HandlerSpec> {
  return STRATEGIES[spec.type];
}
