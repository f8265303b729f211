#!/usr/bin/env node
'use strict';
const { main } = require('../dist/cli.cjs');

main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: process.stdin,
}).then((code) => {
  process.exitCode = code;
});
