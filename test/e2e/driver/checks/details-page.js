'use strict';
// The extension's Details page (the README the gallery shows, opened for the installed .vsix): every picture loads.
// VS Code's extension editor keeps only http/https image sources (relative paths and data: URIs are removed) and its
// webview's CSP allows https: and data:, so the packaged README must name its pictures by https URL; vsce writes the
// repository's. The harness serves those URLs from this checkout (the e2e has no internet), so a picture loads only
// when its URL names a file the repository has.
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const { probeUntil, withTimeout } = require('../lib');

const EXTENSION_ID = 'workspace-tools.workspace-tools';

/** The alt texts and sources of the pictures in the README packaged into the installed extension. */
function packagedReadmeImages(extensionPath) {
  const file = fs.readdirSync(extensionPath).find((name) => name.toLowerCase() === 'readme.md');
  const text = fs.readFileSync(path.join(extensionPath, file), 'utf8');
  return [...text.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => ({ alt: m[1], src: m[2] }));
}

/** The frame showing the README: the one holding every expected picture (by alt text). */
function readmeFrame(frames, expected) {
  return frames.find((frame) => expected.every((image) => frame.images.some((shown) => shown.alt === image.alt)));
}

module.exports = [
  {
    name: 'details_page.readme_pictures_load',
    scenarios: ['trusted'],
    needsBrowser: true,
    timeoutMs: 60000,
    run: async (ctx) => {
      const expected = packagedReadmeImages(ctx.ext.extensionPath);
      // _extensions.manage opens an installed extension without asking the gallery (extension.open asks it first)
      await withTimeout(vscode.commands.executeCommand('_extensions.manage', EXTENSION_ID, 'readme'), 10000, '_extensions.manage');
      const loaded = (frame) => !!frame && frame.images.every((image) => image.complete && image.naturalWidth > 0);
      const frames = await probeUntil('images', (value) => loaded(readmeFrame(value, expected)), 30000);
      const frame = readmeFrame(frames, expected);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      const https = expected.every((image) => image.src.startsWith('https://'));
      const pass = expected.length > 0 && https && loaded(frame);
      return { pass, detail: { expected, shown: frame ? frame.images : null, frames: frames.map((f) => ({ url: f.url.slice(0, 80), images: f.images.length })) } };
    },
  },
];
