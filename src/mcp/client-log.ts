/**
 * Log messages to the MCP client (`notifications/message`), sent only once the client asks for
 * them with `logging/setLevel`, and only at or above the level it asked for. Clients that never
 * ask (most) get nothing; their users read stderr.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { LoggingLevelSchema, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/types';

const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;

/** Sends log messages to the client once it has turned logging on. */
export class ClientLog {
  private level: LoggingLevel | undefined;

  /**
   * Takes over `logging/setLevel` on `server` (which must declare the `logging` capability).
   * `onEnabled` runs each time the client sets a level: the place to resend what it missed.
   */
  constructor(
    private readonly server: Server,
    private readonly logger: Logger,
    onEnabled: () => void,
  ) {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.level = request.params.level;
      // After the answer to setLevel has gone out.
      setImmediate(onEnabled);
      return {};
    });
  }

  /** Sends `text` at `level` if the client asked for that level or a lower one. */
  send(level: LoggingLevel, text: string): void {
    if (this.level === undefined || SEVERITY.indexOf(level) < SEVERITY.indexOf(this.level)) {
      return;
    }
    this.server.sendLoggingMessage({ level, logger: 'workspace-tools', data: text }).catch((error: unknown) => {
      this.logger.debug(`[mcp] could not send a log message to the client: ${String(error)}`);
    });
  }
}
