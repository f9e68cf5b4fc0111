#!/usr/bin/env node
// Entry point of the `walkaround` command. Failures end the program with a clear message and exit 1.
import { buildProgram } from './cli/program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`walkaround: ${message}\n`);
  process.exitCode = 1;
}
