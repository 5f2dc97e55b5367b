// Placeholder until the strategy lands; replaced wholesale by its implementation.
import type { HttpHandlerSpec } from '../plugins/plugin-types';
import type { HandlerStrategy } from './handler-types';

export const httpHandler: HandlerStrategy<HttpHandlerSpec> = {
  check: () => [],
  summarize: () => 'http',
  create: () => () => Promise.reject(new Error('http handler not implemented yet')),
};
