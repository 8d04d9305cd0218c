#!/usr/bin/env node
// scanbase: the command line of Scanbase, on @scanbase/sdk (docs/cli.md).
// Arguments are parsed with commander: nested commands (`projects list`), per-command
// options and help, environment defaults (.env()) and typed errors come with it; node's
// util.parseArgs has no sub-commands or help, which the first version had to hand-roll.
// Exit codes by kind of failure: exit-codes.ts.
import fs from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { EXIT, exitCodeOf, failureLine } from './exit-codes.ts';
import { DEFAULT_TIMEOUT_SECONDS } from './context.ts';
import { authCommands } from './commands/auth.ts';
import { resourceCommands } from './commands/resources.ts';
import { transferCommands } from './commands/transfers.ts';
import { tagCommands } from './commands/tags.ts';
import { completionCommand } from './commands/completion.ts';
import { proxyCommand } from './commands/proxy.ts';
import { ssoCommands } from './commands/sso.ts';
import { scimCommands } from './commands/scim.ts';
import { integrationCommands } from './commands/integrations.ts';
import { sandboxCommand } from './commands/sandbox.ts';
import { pointCloudCommand } from './commands/point-clouds.ts';
import { pnidAddCommand, usageReportCommand } from './commands/usage-pnid.ts';

export function program(): Command {
  const p = new Command('scanbase')
    .description('The command line of Scanbase: sign in, manage projects, zones, members, files and tags, upload and download.')
    .addOption(new Option('--profile <name>', 'the profile (one signed-in user on one server)').env('SCANBASE_PROFILE'))
    .addOption(new Option('--base-url <url>', 'the service\'s address (login: where to sign in; default http://127.0.0.1:8080)').env('SCANBASE_BASE_URL'))
    .option('--json', 'print JSON (the service\'s documents) instead of tables')
    .addOption(new Option('--timeout <seconds>', `how long a request may wait for the service's answer (file transfers excepted; default ${DEFAULT_TIMEOUT_SECONDS})`).env('SCANBASE_TIMEOUT'))
    .version((JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version)
    .showHelpAfterError('(scanbase --help for usage)')
    .exitOverride();
  for (const c of [...authCommands(), ...resourceCommands({ files: [pointCloudCommand()], subscriptions: [usageReportCommand()], 'tag-lists': [pnidAddCommand()] }), ...transferCommands(), tagCommands(), ssoCommands(), scimCommands(), integrationCommands(), proxyCommand(), sandboxCommand()]) p.addCommand(c);
  p.addCommand(completionCommand(p));
  // Every sub-command throws instead of exiting, so the exit codes stay ours.
  const override = (c: Command) => {
    c.exitOverride();
    c.commands.forEach(override);
  };
  override(p);
  return p;
}

try {
  await program().parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // Help and version are not failures; the parser already printed its message.
    process.exitCode = e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version' ? EXIT.ok : EXIT.usage;
  } else {
    console.error(failureLine(e));
    process.exitCode = exitCodeOf(e);
  }
}
