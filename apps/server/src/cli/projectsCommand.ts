import { Command } from 'commander';
import { PROJECT_ID_PATTERN } from '@telltale/semconv';
import { z } from 'zod';
import { formatTime } from './formatTime.js';
import { parseOptions } from './parseOptions.js';
import { renderTable } from './renderTable.js';
import { addAdminOptions, adminBackend, type AdminOptions } from './adminBackend.js';

const ProjectId = z
  .string()
  .regex(
    PROJECT_ID_PATTERN,
    'a project id is 1–64 lowercase letters, digits and hyphens, starting with a letter or digit',
  );
const Quota = z.coerce.number().int().min(1);

const CreateInput = z.object({
  id: ProjectId,
  name: z.string().min(1).max(256).optional(),
  maxSpansPerSecond: Quota.optional(),
});
const UpdateInput = z.object({
  id: ProjectId,
  name: z.string().min(1).max(256).optional(),
  maxSpansPerSecond: z.union([z.literal('none'), Quota]).optional(),
});

type Write = (text: string) => void;

/** `telltale projects create|list|update`. */
export function projectsCommand(write: Write): Command {
  const projects = new Command('projects').description(
    'projects: each has its own data and API keys (used with --auth keys)',
  );

  addAdminOptions(projects.command('create <id>').description('create a project (id: a slug such as checkout-agents)'))
    .option('--name <name>', 'a display name (default: the id)')
    .option('--max-spans-per-second <n>', 'ingest quota: spans per second over it are refused with 429 (default: none)')
    .action(async (id: string, raw: AdminOptions & { name?: string; maxSpansPerSecond?: string }, command: Command) => {
      const input = parseOptions(CreateInput, { id, name: raw.name, maxSpansPerSecond: raw.maxSpansPerSecond });
      const project = await adminBackend(raw, command).createProject({
        id: input.id,
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.maxSpansPerSecond === undefined ? {} : { maxSpansPerSecond: input.maxSpansPerSecond }),
      });
      write(
        `created project ${project.id}${project.maxSpansPerSecond === undefined ? '' : ` (at most ${project.maxSpansPerSecond} spans/s)`}\n`,
      );
      write(`next: telltale keys create --project ${project.id} --kind ingest   (and --kind read for the API)\n`);
    });

  addAdminOptions(projects.command('list').description('list the projects'))
    .option('--json', 'print JSON', false)
    .action(async (raw: AdminOptions & { json: boolean }, command: Command) => {
      const all = await adminBackend(raw, command).listProjects();
      if (raw.json) {
        write(`${JSON.stringify(all, null, 2)}\n`);
        return;
      }
      if (all.length === 0) {
        write('no projects: create one with telltale projects create <id>\n');
        return;
      }
      const rows = all.map((p) => [
        p.id,
        p.name,
        p.maxSpansPerSecond === undefined ? '—' : String(p.maxSpansPerSecond),
        formatTime(p.createdAtMs),
      ]);
      write(
        `${renderTable([{ header: 'id' }, { header: 'name' }, { header: 'max spans/s', align: 'right' }, { header: 'created' }], rows)}\n`,
      );
    });

  addAdminOptions(projects.command('update <id>').description("change a project's name or ingest quota"))
    .option('--name <name>', 'a new display name')
    .option('--max-spans-per-second <n>', 'a new ingest quota, or "none" to remove it')
    .action(async (id: string, raw: AdminOptions & { name?: string; maxSpansPerSecond?: string }, command: Command) => {
      const input = parseOptions(UpdateInput, { id, name: raw.name, maxSpansPerSecond: raw.maxSpansPerSecond });
      const project = await adminBackend(raw, command).updateProject(input.id, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.maxSpansPerSecond === undefined
          ? {}
          : { maxSpansPerSecond: input.maxSpansPerSecond === 'none' ? null : input.maxSpansPerSecond }),
      });
      write(
        `updated project ${project.id}: ${project.maxSpansPerSecond === undefined ? 'no ingest quota' : `at most ${project.maxSpansPerSecond} spans/s`}\n`,
      );
    });

  return projects;
}
