// Placeholder until the strategy lands; replaced wholesale by its implementation.
import type { ShellHandlerSpec } from '../plugins/plugin-types';
import type { HandlerStrategy } from './handler-types';

export const shellHandler: HandlerStrategy<ShellHandlerSpec> = {
  check: () => [],
  summarize: () => 'shell',
  create: () => () => Promise.reject(new Error('shell handler not implemented yet')),
};
