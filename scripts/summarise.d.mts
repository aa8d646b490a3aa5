export interface VitestJsonReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: Array<{ name: string; status: string; message?: string; assertionResults?: Array<{ status: string }> }>;
}
export function summarise(report: VitestJsonReport, exitStatus: number | null): { line: string; notes: string[] };
