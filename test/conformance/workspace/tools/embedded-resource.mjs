// test_embedded_resource: a text resource embedded in the answer.
export default () => ({
  content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
});
