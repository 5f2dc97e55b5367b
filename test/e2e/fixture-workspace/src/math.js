'use strict';

function add(a, b) {
  return a + b;
}

module.exports = { add };
