// The test command's closing line, from vitest's JSON report.

/**
 * `{ line: "tests: N passed, N failed[, N skipped]", notes }`. A test file that
 * failed outside its tests (a hook that threw or timed out, an import error)
 * counts as one failure, and a run that vitest failed with nothing else
 * counted (an unhandled error) counts as one, so the line never reads
 * "0 failed" beside a non-zero exit. `notes` names each such file.
 */
export function summarise(report, exitStatus) {
  const { numPassedTests = 0, numFailedTests = 0, numPendingTests = 0, numTodoTests = 0, testResults = [] } = report;
  const outside = testResults.filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  );
  let failed = numFailedTests + outside.length;
  if (failed === 0 && exitStatus !== 0) failed = 1;
  const skipped = numPendingTests + numTodoTests;
  const notes = outside.map(
    (file) =>
      `failed outside its tests: ${file.name}${file.message ? ` — ${String(file.message).split('\n', 1)[0]}` : ''}`,
  );
  return {
    line: `tests: ${numPassedTests} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
    notes,
  };
}
