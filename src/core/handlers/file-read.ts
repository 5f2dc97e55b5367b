// Placeholder until the strategy lands; replaced wholesale by its implementation.
import type { FileReadHandlerSpec } from '../plugins/plugin-types';
import type { HandlerStrategy } from './handler-types';

export const fileReadHandler: HandlerStrategy<FileReadHandlerSpec> = {
  check: () => [],
  summarize: () => 'file-read',
  create: () => () => Promise.reject(new Error('file-read handler not implemented yet')),
};
