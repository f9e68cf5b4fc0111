// Run before every integration test file: each test fails when an answer of the service in this process
// did not match the OpenAPI document (RESPONSE_CONTRACT=enforce, set by ./backends.ts; served processes
// are checked by ./process.ts).
import { afterEach } from 'vitest';
import { takeContractViolations } from '../../src/http/plugins/response-contract.js';

afterEach(() => {
  const found = takeContractViolations();
  if (found.length > 0)
    throw new Error(
      `answers outside the OpenAPI document:\n${found.map((v) => `  ${v.method} ${v.route} → ${v.problem}`).join('\n')}`,
    );
});
