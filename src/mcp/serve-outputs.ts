/**
 * The large outputs kept whole (OutputStore) as MCP resources: `resources/list` and
 * `resources/read`; a URI the store does not hold is answered resource-not-found (the SDK sends
 * it as `-32602` with `data.uri` on every revision, as protocol 2026-07-28 requires).
 */
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { OutputStore } from '../core/output/output-store';
import { UnknownOutputError } from '../core/output/output-store';
import { paginatedParams, readResourceParams } from './request-params';
import type { ServerFeature } from './server-feature';

/** `resources/list` and `resources/read` over `outputs`. */
export function outputsFeature(outputs: OutputStore): ServerFeature {
  return {
    capabilities: { resources: {} },
    register: ({ server }) => {
      server.setRequestHandler('resources/list', { params: paginatedParams }, () => ({ resources: outputs.list() }));
      server.setRequestHandler('resources/read', { params: readResourceParams }, async (params) => {
        try {
          const { text, resource } = await outputs.read(params.uri);
          return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }] };
        } catch (error) {
          if (error instanceof UnknownOutputError) {
            throw new ResourceNotFoundError(params.uri, error.message);
          }
          throw error;
        }
      });
      return undefined;
    },
  };
}
