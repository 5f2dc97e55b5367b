/**
 * Log messages to the MCP client (`notifications/message`), sent only once the client asks for
 * them with `logging/setLevel`, and only at or above the level it asked for. Clients that never
 * ask (most) get nothing; their users read stderr. Logging is deprecated in protocol 2026-07-28
 * (SEP-2577) but still served there; no new feature builds on it.
 */
import type { LoggingLevel, Server } from '@modelcontextprotocol/server';
import type { Logger } from '../core/types';
import type { ServerFeature } from './server-feature';
import { LOG_LEVELS, setLevelParams } from './request-params';

/** Sends log messages to the client of the server it was last attached to, once it turned logging on. */
export class ClientLog {
  private level: LoggingLevel | undefined;
  private server: Server | undefined;

  /** `onEnabled` runs each time the client sets a level: the place to resend what it missed. */
  constructor(
    private readonly logger: Logger,
    private readonly onEnabled: () => void,
  ) {}

  /** This as a feature of the server (server.ts): `logging` is declared by every instance. */
  feature(): ServerFeature {
    return {
      capabilities: { logging: {} },
      register: ({ server }) => {
        this.attach(server);
        return undefined;
      },
    };
  }

  /**
   * Takes over `logging/setLevel` on `server` (which must declare the `logging` capability): the
   * server instance a connection is served by (createServer may build one for a discarded
   * `server/discover` probe first; the level a client sets is its own).
   */
  attach(server: Server): void {
    this.server = server;
    this.level = undefined;
    server.setRequestHandler('logging/setLevel', { params: setLevelParams }, (params) => {
      this.level = params.level;
      // After the answer to setLevel has gone out.
      setImmediate(this.onEnabled);
      return {};
    });
  }

  /** Sends `text` at `level` if the client asked for that level or a lower one. */
  send(level: LoggingLevel, text: string): void {
    if (this.server === undefined || this.level === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.level)) {
      return;
    }
    this.server.sendLoggingMessage({ level, logger: 'workspace-tools', data: text }).catch((error: unknown) => {
      this.logger.debug(`[mcp] could not send a log message to the client: ${String(error)}`);
    });
  }
}
