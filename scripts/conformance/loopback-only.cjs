// Preloaded into supergateway (node --require) by scripts/test-conformance.mjs: supergateway has
// no bind-address option and listens on every interface; this makes a listen on a bare port
// listen on 127.0.0.1 only, so the test's MCP server is never reachable from the network.
'use strict';
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
