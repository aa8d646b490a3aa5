import { Command } from 'commander';
import { MAX_RUN_ID_LENGTH, OPEN_MODE_PROJECT, PROJECT_ID_PATTERN } from '@telltale/semconv';
import { z } from 'zod';
import { addAdminOptions, adminBackend, type AdminOptions } from './adminBackend.js';
import { parseOptions } from './parseOptions.js';

const DeleteInput = z.object({
  runId: z.string().min(1).max(MAX_RUN_ID_LENGTH),
  project: z.string().regex(PROJECT_ID_PATTERN, 'a project id is 1–64 lowercase letters, digits and hyphens'),
});

type Write = (text: string) => void;

/** `telltale runs delete`: what the admin may do to a stored run. */
export function runsCommand(write: Write): Command {
  const runs = new Command('runs').description('stored runs (admin)');

  addAdminOptions(
    runs
      .command('delete <runId>')
      .description('delete a run and everything kept about it: its content, spans and facts'),
  )
    .option('--project <id>', 'the project the run belongs to', OPEN_MODE_PROJECT)
    .option('--json', 'print JSON', false)
    .action(async (runId: string, raw: AdminOptions & { project: string; json: boolean }, command: Command) => {
      const input = parseOptions(DeleteInput, { runId, project: raw.project });
      const deleted = await adminBackend(raw, command).deleteRun(input.project, input.runId);
      if (raw.json) {
        write(`${JSON.stringify(deleted, null, 2)}\n`);
        return;
      }
      const spans = `${deleted.spans} span${deleted.spans === 1 ? '' : 's'}`;
      write(
        `deleted run ${deleted.runId} of project ${input.project}: ${spans} (${deleted.contentSpans} with content) and its facts\n`,
      );
    });
  return runs;
}
