#!/usr/bin/env node
// The installed `adops` command: runs the built CLI and exits with its code.
import { exitQuietlyOnBrokenPipe, run } from '../dist/main.js';

exitQuietlyOnBrokenPipe();
process.exitCode = await run(process.argv.slice(2));
