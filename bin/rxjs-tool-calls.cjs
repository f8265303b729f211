#!/usr/bin/env node
'use strict';
const { runCli } = require('../dist/cli.cjs');
const { version } = require('../package.json');

runCli(process, version);
