/**
 * `prompt NAME --arg K=V...`: renders one prompt through the same registry the server uses (the
 * approval rule applied, the arguments checked, files read contained) and prints its messages.
 */
import type { PromptContent, RenderedPrompt } from '../../core/prompts';
import { PromptArgumentError, PromptNotServedError } from '../../core/prompts';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { setUp } from './setup';

/** Renders and prints; resolves to 0, or 1 when the prompt could not be rendered. */
export async function prompt(command: Extract<CliCommand, { command: 'prompt' }>): Promise<number> {
  const { options } = command;
  const { registry } = setUp(options, stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel));
  try {
    const rendered = await registry.getPrompt(command.prompt, command.args);
    process.stdout.write(command.json ? `${JSON.stringify(rendered, null, 2)}\n` : renderedText(rendered));
    return 0;
  } catch (error) {
    if (error instanceof PromptArgumentError || error instanceof PromptNotServedError) {
      process.stderr.write(`workspace-tools-mcp: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    registry.dispose();
  }
}

/** Each message as `[role]` and its content; files and images with what they are. */
export function renderedText(rendered: RenderedPrompt): string {
  return rendered.messages.map((message) => `[${message.role}]${contentText(message.content)}`).join('\n\n').concat('\n');
}

/** A text's lines below its role; a file or image after it on the same line, with what it is. */
function contentText(content: PromptContent): string {
  switch (content.type) {
    case 'text':
      return `\n${content.text}`;
    case 'image':
      return ` image (${content.mimeType}, ${Buffer.from(content.data, 'base64').length} bytes)`;
    case 'resource': {
      const { resource } = content;
      return 'text' in resource ? ` ${resource.uri} (${resource.mimeType})\n${resource.text}` : ` ${resource.uri} (${resource.mimeType}, ${Buffer.from(resource.blob, 'base64').length} bytes, binary)`;
    }
  }
}
