/**
 * How `call` asks the user (CallOptions.ask): on the terminal, when standard input and standard
 * error are one (the result goes to standard output, so a question never mixes with it). Each
 * field of the form is asked in turn, with its choices and default; then "Accept?". Ctrl-D (end
 * of input) dismisses the question (cancel). Without a terminal, asking fails with the reason.
 */
import { createInterface } from 'node:readline/promises';
import { cannotAskError } from '../core/tool-errors';
import type { AskUser, ElicitAnswer, ElicitValue } from '../core/types';

interface Field {
  readonly type?: string;
  readonly title?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly string[];
  readonly oneOf?: ReadonlyArray<{ readonly const: string }>;
  readonly items?: { readonly enum?: readonly string[]; readonly anyOf?: ReadonlyArray<{ readonly const: string }> };
}

/** The user ended the input (Ctrl-D) or gave up on a field: the question is dismissed. */
const DISMISSED = Symbol('dismissed');

/** Tries a field gets before the question is dismissed. */
const MAX_TRIES = 3;

/** `call`'s way of asking: on the terminal, or a refusal saying there is none. */
export function terminalAsk(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): AskUser {
  return async (request, signal) => {
    if (input.isTTY !== true || output.isTTY !== true) {
      throw cannotAskError('`call` asks on a terminal, and its standard input or standard error is not one (run it in a terminal, without piping the input)');
    }
    const lines = createInterface({ input, output, terminal: true });
    const ended = new Promise<undefined>((resolve) => lines.once('close', () => resolve(undefined)));
    const ask = async (prompt: string): Promise<string | undefined> => Promise.race([lines.question(prompt, { signal }), ended]);
    try {
      output.write(`\n${request.message}\n`);
      const content: Record<string, ElicitValue> = {};
      const required = new Set(request.requestedSchema.required ?? []);
      for (const [name, field] of Object.entries((request.requestedSchema.properties ?? {}) as Record<string, Field>)) {
        const value = await askField(ask, output, name, field, required.has(name));
        if (value === DISMISSED) {
          return { action: 'cancel' };
        }
        if (value !== undefined) {
          content[name] = value;
        }
      }
      const accept = await ask('Accept? [y/N] ');
      if (accept === undefined) {
        return { action: 'cancel' };
      }
      const answer: ElicitAnswer = /^y(es)?$/i.test(accept.trim()) ? { action: 'accept', content } : { action: 'decline' };
      return answer;
    } catch (error) {
      if (signal.aborted) {
        throw error;
      }
      return { action: 'cancel' };
    } finally {
      lines.close();
    }
  };
}

/** One field's value, undefined when left empty (and not required), or DISMISSED. */
async function askField(ask: (prompt: string) => Promise<string | undefined>, output: NodeJS.WriteStream, name: string, field: Field, required: boolean): Promise<ElicitValue | undefined | typeof DISMISSED> {
  const choices = field.enum ?? field.oneOf?.map((choice) => choice.const) ?? field.items?.enum ?? field.items?.anyOf?.map((choice) => choice.const);
  const hint = [field.type === 'array' ? 'comma-separated' : undefined, choices === undefined ? undefined : choices.join('/'), field.type === 'boolean' ? 'y/n' : undefined].filter((part) => part !== undefined).join(', ');
  const fallback = field.default === undefined ? '' : ` [${Array.isArray(field.default) ? field.default.join(',') : typeof field.default === 'string' ? field.default : JSON.stringify(field.default)}]`;
  const prompt = `  ${field.title ?? name}${hint === '' ? '' : ` (${hint})`}${required ? '' : ' (optional)'}${fallback}: `;
  for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
    const typed = await ask(prompt);
    if (typed === undefined) {
      return DISMISSED;
    }
    const text = typed.trim();
    if (text === '') {
      if (field.default !== undefined) {
        return field.default as ElicitValue;
      }
      if (!required) {
        return undefined;
      }
      output.write('    an answer is needed\n');
      continue;
    }
    const value = valueOf(text, field, choices);
    if (typeof value === 'object' && value !== null && 'problem' in value) {
      output.write(`    ${value.problem}\n`);
      continue;
    }
    return value;
  }
  return DISMISSED;
}

function valueOf(text: string, field: Field, choices: readonly string[] | undefined): ElicitValue | { problem: string } {
  switch (field.type) {
    case 'number':
    case 'integer': {
      const number = Number(text);
      const whole = field.type === 'integer' ? Number.isInteger(number) : Number.isFinite(number);
      return whole ? number : { problem: `a ${field.type === 'integer' ? 'whole ' : ''}number, please` };
    }
    case 'boolean':
      return /^(y|yes|true)$/i.test(text) ? true : /^(n|no|false)$/i.test(text) ? false : { problem: 'y or n, please' };
    case 'array': {
      const picked = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
      const wrong = picked.filter((item) => choices !== undefined && !choices.includes(item));
      return wrong.length === 0 ? picked : { problem: `not a choice: ${wrong.join(', ')}` };
    }
    default:
      return choices === undefined || choices.includes(text) ? text : { problem: `one of ${choices.join(', ')}, please` };
  }
}
