/**
 * Imported first by main.ts, so it runs before any other module's code: on Windows the process
 * title must be set before anything reads it (see settleProcessTitle). The one side effect at
 * import time in the server, and on purpose.
 */
import { hostPlatform, settleProcessTitle } from '../core/platform/platform';

settleProcessTitle(hostPlatform(), 'workspace-tools-mcp');
