/**
 * The SDK's Ajv-based JSON Schema validator, loaded and compiled on first use. The SDK's Node shim
 * (`@modelcontextprotocol/server/_shims`, imported by its server modules) imports it at the top,
 * and with it the SDK's vendored copy of Ajv and its formats, which start-up then evaluated before
 * the first answer although the validator only checks elicitation answers (and `fromJsonSchema`
 * schemas). esbuild.mjs points the shim's import here; this module loads the real one, and
 * compiles a schema, only when a value is first validated against it.
 */
import type { AjvJsonSchemaValidator as SdkAjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';

/** Same constructor and `getValidator` as the SDK's class; the Ajv work waits for the first validation. */
export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private real: SdkAjvJsonSchemaValidator | undefined;

  constructor(private readonly ajv?: ConstructorParameters<typeof SdkAjvJsonSchemaValidator>[0]) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // `fromJsonSchema` asks for the validator when its schema is made, which may be at start-up.
    let validate: JsonSchemaValidator<T> | undefined;
    return (input) => {
      validate ??= this.sdk().getValidator<T>(schema);
      return validate(input);
    };
  }

  private sdk(): SdkAjvJsonSchemaValidator {
    if (this.real === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const sdk = require('@modelcontextprotocol/server/validators/ajv') as { AjvJsonSchemaValidator: typeof SdkAjvJsonSchemaValidator };
      this.real = new sdk.AjvJsonSchemaValidator(this.ajv);
    }
    return this.real;
  }
}

/** What the SDK's Node shim exports beside the validator. */
export { default as process } from 'node:process';
/** The shim's name for the validator (`@modelcontextprotocol/server/_shims`). */
export { AjvJsonSchemaValidator as DefaultJsonSchemaValidator };
