/**
 * A real npm registry for tests: Verdaccio (the devDependency), started on 127.0.0.1 on a free
 * port with no uplinks (nothing is fetched from anywhere else) and its storage in a temp
 * directory, with one user whose token publishes.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';

const VERDACCIO = path.resolve(__dirname, '../../../../node_modules/verdaccio/bin/verdaccio');

/** A running registry. */
export interface TestRegistry {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  /** Publishes a package tarball with `npm publish`. */
  publish(tarball: string): Promise<void>;
  /** What the registry printed (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/** The environment without the outer npm's settings (npm test sets npm_config_*). */
export function withoutNpmSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !/^npm_/i.test(entry[0]) && entry[1] !== undefined));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function config(dir: string): string {
  return [
    `storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
    '    max_users: 10',
    'uplinks: {}',
    'packages:',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'web:',
    '  enable: false',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

/** Resolves once the registry answers /-/ping (Verdaccio takes a few seconds to start). */
async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Verdaccio exited with ${child.exitCode}:\n${output()}`);
    }
    const up = await fetch(`${url}-/ping`).then((response) => response.ok, () => false);
    if (up) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Verdaccio did not answer within 60 s:\n${output()}`);
}

/** A user (created now) and an npmrc holding its token, for `npm publish`. */
async function publisherConfig(url: string, dir: string): Promise<string> {
  const response = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'publisher', password: 'publisher-password-1' }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!response.ok || token === undefined) {
    throw new Error(`Verdaccio refused to create the publishing user: ${response.status}`);
  }
  const npmrc = path.join(dir, 'publisher.npmrc');
  writeFileSync(npmrc, `registry=${url}\n//${new URL(url).host}/:_authToken=${token}\n`);
  return npmrc;
}

/** Starts Verdaccio with everything in `dir`. */
export async function startRegistry(dir: string): Promise<TestRegistry> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), config(dir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(process.execPath, [VERDACCIO, '--config', path.join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    env: withoutNpmSettings(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await waitUntilUp(url, child, () => output);
    const npmrc = await publisherConfig(url, dir);
    const publish = async (tarball: string): Promise<void> => {
      const env = { ...withoutNpmSettings(), npm_config_userconfig: npmrc, npm_config_cache: path.join(dir, 'publish-cache') };
      await promisify(execFile)('npm', ['publish', tarball, '--registry', url], { env, cwd: dir });
    };
    return { url, publish, log: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
