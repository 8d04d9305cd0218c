// Shell completion: `scanbase completion bash|zsh` prints a script generated from the
// command tree itself (commands, sub-commands and their options), so it never lags behind.
import { Command } from 'commander';
import { UsageError } from '../exit-codes.ts';

const optionsOf = (c: Command) => [...c.options.map((o) => o.long).filter((x): x is string => Boolean(x)), '--help'];

/** Words to offer after each command path ("" is the top level): sub-commands and options. */
export function completionTable(program: Command): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const walk = (c: Command, key: string, inherited: string[]) => {
    const own = optionsOf(c);
    table.set(key, [...c.commands.map((s) => s.name()), ...c.commands.flatMap((s) => s.aliases()), ...own, ...inherited]);
    for (const s of c.commands) walk(s, key ? `${key} ${s.name()}` : s.name(), key ? inherited : own);
  };
  walk(program, '', []);
  return table;
}

function bashScript(program: Command): string {
  const cases = [...completionTable(program)].map(([k, words]) => `    "${k}") words="${[...new Set(words)].join(' ')}" ;;`).join('\n');
  return `# scanbase completion for bash: eval "$(scanbase completion bash)"
_scanbase() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    case "\${path:+$path }$w" in
${[...completionTable(program).keys()].filter(Boolean).map((k) => `      "${k}") path="${k}" ;;`).join('\n')}
    esac
  done
  local words
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  [[ \${#COMPREPLY[@]} -eq 0 ]] && COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _scanbase scanbase
`;
}

export function completionCommand(program: Command): Command {
  return new Command('completion')
    .description('print a shell completion script: eval "$(scanbase completion bash)" (zsh: the same through bashcompinit)')
    .argument('<shell>', 'bash or zsh')
    .action((shell: string) => {
      if (shell === 'bash') process.stdout.write(bashScript(program));
      else if (shell === 'zsh') process.stdout.write(`autoload -U +X bashcompinit && bashcompinit\n${bashScript(program)}`);
      else throw new UsageError(`completion: unknown shell ${shell} (bash or zsh)`);
    });
}
