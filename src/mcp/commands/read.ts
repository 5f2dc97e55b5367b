/**
 * `read URI`: one resource, read through the same ResourceService the server serves (approval,
 * containment, size caps, a command's timeout), printed: text as it is, a blob as raw bytes.
 */
import { ResourceService } from '../../core/resources/resource-service';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { setUp } from './setup';

/** Prints the resource; resolves to 0, or 1 when it is unknown or could not be read. */
export async function read(command: Extract<CliCommand, { command: 'read' }>): Promise<number> {
  const { options } = command;
  const logger = stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel);
  const setup = setUp(options, logger);
  const service = new ResourceService({ source: setup.registry, env: process.env, limits: () => setup.limits(), logger, onUpdated: () => undefined, onListChanged: () => undefined });
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  try {
    const contents = await service.read(command.uri, controller.signal);
    const bytes = 'text' in contents ? Buffer.from(contents.text, 'utf8') : Buffer.from(contents.blob, 'base64');
    await new Promise<void>((resolve, reject) => process.stdout.write(bytes, (error) => (error === null || error === undefined ? resolve() : reject(error))));
    return 0;
  } catch (error) {
    process.stderr.write(`workspace-tools-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', cancel);
    service.dispose();
    setup.registry.dispose();
  }
}
