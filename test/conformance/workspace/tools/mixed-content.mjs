// test_multiple_content_types: text, the workspace's red pixel as an image, and a JSON resource.
import { readFileSync } from 'node:fs';

export default (input, context) => ({
  content: [
    { type: 'text', text: 'Multiple content types test:' },
    { type: 'image', data: readFileSync(`${context.workspaceFolder}/fixtures/red-pixel.png`).toString('base64'), mimeType: 'image/png' },
    { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
  ],
});
