/**
 * The JSON Schema validator the SDK uses (elicitation answers, `fromJsonSchema` schemas), on the
 * project's own Ajv (src/core/json-schema/ajv.ts), loaded and compiled on first use. The SDK's
 * Node shim (`@modelcontextprotocol/server/_shims`, imported by its server modules) imports its
 * own vendored copy of Ajv and its formats, which start-up then evaluated before the first answer
 * and which made a second Ajv in the bundle. esbuild.mjs points the shim's import here.
 */
import type Ajv from 'ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { createAjv } from '../core/json-schema/ajv';

/** The SDK's `jsonSchemaValidator`; no Ajv work until a value is first validated. */
export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private ajv: Ajv | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate: ((input: unknown) => boolean) | undefined;
    return (input) => {
      this.ajv ??= createAjv();
      const check = (validate ??= this.ajv.compile(schema as object));
      if (check(input)) {
        return { valid: true, data: input as T, errorMessage: undefined };
      }
      return { valid: false, data: undefined, errorMessage: this.ajv.errorsText((check as { errors?: Parameters<Ajv['errorsText']>[0] }).errors) };
    };
  }
}

/** What the SDK's Node shim exports beside the validator. */
export { default as process } from 'node:process';
/** The shim's name for the validator (`@modelcontextprotocol/server/_shims`). */
export { AjvJsonSchemaValidator as DefaultJsonSchemaValidator };
