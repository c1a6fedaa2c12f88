#!/usr/bin/env node
// Checks GitHub Actions workflows and composite actions for the mistakes actionlint accepts but that break a job
// running in a `container:` on GitHub's runners:
//   host-path       ${{ github.workspace }}, ${{ github.action_path }}, ${{ runner.workspace }}, ${{ runner.temp }}
//                   or ${{ runner.tool_cache }} in a container job (or in the workflow's env when any job has a
//                   container): they expand to the host's paths (/home/runner/work/...), while the container sees
//                   them mounted at /__w/... (actions/runner#2058). The environment variables ($GITHUB_WORKSPACE,
//                   $GITHUB_ACTION_PATH, $RUNNER_TEMP) or relative paths are right in both places.
//   safe-directory  a container job that checks out and then runs steps without marking the checkout a git
//                   safe.directory: the checkout belongs to another user than the container's root, so every git
//                   call after it fails with "dubious ownership" (a results file's commit becomes "unknown").
//   pipefail        a `run:` script with a pipeline and no `shell: bash`: the default shell (sh -e in containers,
//                   bash -e without pipefail on the host) takes the status of the pipeline's last command, so
//                   `cmd | tee log` passes when cmd fails.
// Usage: container-workflows.mjs [FILE...]   (default: .github/workflows/*.yml and .github/actions/*/action.yml)
// Exit 0: clean; 1: findings, one line each, as FILE: job JOB, step N (NAME): RULE: why; 2: unreadable input.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function defaultFiles() {
  const files = [];
  const workflows = join(root, '.github/workflows');
  if (existsSync(workflows)) {
    for (const f of readdirSync(workflows).sort()) if (/\.ya?ml$/.test(f)) files.push(join(workflows, f));
  }
  const actions = join(root, '.github/actions');
  if (existsSync(actions)) {
    for (const d of readdirSync(actions).sort()) {
      const f = join(actions, d, 'action.yml');
      if (existsSync(f)) files.push(f);
    }
  }
  return files;
}

// A host path anywhere inside an expression: ${{ github.workspace }}, ${{ format('{0}/x', runner.temp) }}, ...
const hostPath = /\$\{\{(?:(?!\}\}).)*?\b(github\.(workspace|action_path)|runner\.(workspace|temp|tool_cache))\b(?:(?!\}\}).)*\}\}/;

// Every string inside a value (env maps, `with:` maps, run scripts), with a path for the message.
function* strings(value, where) {
  if (typeof value === 'string') yield [value, where];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${where}[${i}]`);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, `${where}.${k}`);
}

// The script without its comments (a line's text from an unquoted-looking " #" or a leading "#").
function withoutComments(script) {
  return script.split('\n').map((line) => (/^\s*#/.test(line) ? '' : line.replace(/\s#[^'"]*$/, ''))).join('\n');
}

// True when a shell script pipes one command into another. Comments go first, then quoted text (a jq filter's
// `|` is not a pipeline), keeping the command substitutions inside double quotes ("$(a | b)" is one); `||` is
// not a pipe, nor the alternatives of a case pattern (`a|b)`).
function hasPipeline(script) {
  const unquoted = withoutComments(script)
    .replace(/'[^'\n]*'/g, "''")
    .replace(/"(?:[^"\\]|\\.)*"/g, (text) => (text.match(/\$\(([^()]*)\)/g) ?? []).join(' ; '));
  const withoutCasePatterns = unquoted.replace(/(^|\bin\s+|;;\s*)\(?[^\s()|;]+(\|[^\s()|;]+)+\)/gm, '$1');
  return withoutCasePatterns.split('\n').some((line) => /(^|[^|])\|(?!\|)/.test(line));
}

// bash as GitHub runs it for `shell: bash` (with pipefail), any shell command that sets pipefail itself, or a
// script that does.
const setsPipefail = (script) => /\bset\s+-[a-z]*o\s+pipefail|\bset\s+-o\s+pipefail/.test(withoutComments(script));
const isBash = (shell) => typeof shell === 'string' && (shell.trim() === 'bash' || shell.includes('pipefail'));

// A local composite action (`uses: ./path`) marks the workspace safe when one of its run steps does.
function localActionMarksSafe(uses) {
  if (typeof uses !== 'string' || !uses.startsWith('./')) return false;
  const file = join(root, uses, 'action.yml');
  if (!existsSync(file)) return false;
  const action = parse(readFileSync(file, 'utf8'));
  return (action?.runs?.steps ?? []).some((s) => typeof s.run === 'string' && s.run.includes('safe.directory'));
}

function stepLabel(step, i) {
  return `step ${i + 1}${step.name ? ` (${step.name})` : step.uses ? ` (${step.uses})` : ''}`;
}

function checkSteps(file, jobName, steps, { container, defaultShell, findings }) {
  let checkedOut = false;
  let markedSafe = false;
  let checkoutPath = '';  // actions/checkout's `path:`, when the checkout is not the workspace itself
  for (const [i, step] of (steps ?? []).entries()) {
    const at = `${file}: ${jobName}, ${stepLabel(step, i)}`;
    if (container) {
      for (const [text, where] of strings({ env: step.env, with: step.with, run: step.run, 'working-directory': step['working-directory'], shell: step.shell }, 'step')) {
        if (hostPath.test(text)) {
          findings.push(`${at}: host-path: ${where} uses ${text.match(hostPath)[0]}, the host's path, not the container's; use $GITHUB_WORKSPACE or a relative path`);
        }
      }
    }
    if (typeof step.run === 'string') {
      const code = withoutComments(step.run);
      if (code.includes('safe.directory') && (!checkoutPath || code.includes(checkoutPath) || code.includes("'*'"))) markedSafe = true;
      if (container && checkedOut && !markedSafe) {
        findings.push(`${at}: safe-directory: runs after actions/checkout in a container without marking the checkout a git safe.directory (git refuses a checkout owned by another user)`);
        markedSafe = true;  // one finding per job
      }
      if (hasPipeline(step.run) && !isBash(step.shell ?? defaultShell) && !setsPipefail(step.run)) {
        findings.push(`${at}: pipefail: the script has a pipeline but runs without shell: bash, so a failure before the last command does not fail the step`);
      }
    }
    if (typeof step.uses === 'string') {
      if (/^actions\/checkout@/.test(step.uses)) {
        checkedOut = true;
        checkoutPath = typeof step.with?.path === 'string' ? step.with.path : '';
      }
      else if (localActionMarksSafe(step.uses)) markedSafe = true;
    }
  }
}

function check(file) {
  let doc;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`container-workflows: ${file}: ${String(e.message).split('\n')[0]}`);
    process.exit(2);
  }
  const findings = [];
  const shown = file.startsWith(root + '/') ? file.slice(root.length + 1) : file;
  if (doc?.runs?.using === 'composite') {
    // A composite action runs in its caller's job, which may be a container: judge it as one.
    checkSteps(shown, 'composite action', doc.runs.steps, { container: true, defaultShell: undefined, findings });
    return findings;
  }
  const jobs = Object.entries(doc?.jobs ?? {});
  const anyContainer = jobs.some(([, job]) => job.container);
  if (anyContainer) {
    for (const [text, where] of strings({ env: doc.env, defaults: doc.defaults }, 'workflow')) {
      if (hostPath.test(text)) {
        findings.push(`${shown}: workflow ${where}: host-path: ${text.match(hostPath)[0]} is the host's path, and jobs here run in containers; set it in a step from $GITHUB_WORKSPACE`);
      }
    }
  }
  for (const [name, job] of jobs) {
    const container = Boolean(job.container);
    if (container) {
      for (const [text, where] of strings({ env: job.env, defaults: job.defaults }, 'job')) {
        if (hostPath.test(text)) findings.push(`${shown}: job ${name} ${where}: host-path: ${text.match(hostPath)[0]} is the host's path inside the container`);
      }
    }
    const defaultShell = job.defaults?.run?.shell ?? doc.defaults?.run?.shell;
    checkSteps(shown, `job ${name}`, job.steps, { container, defaultShell, findings });
  }
  return findings;
}

const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => resolve(f)) : defaultFiles();
if (files.length === 0) {
  console.error('container-workflows: no workflow file found');
  process.exit(2);
}
let findings = [];
for (const f of files) {
  if (!existsSync(f)) {
    console.error(`container-workflows: ${f}: no such file`);
    process.exit(2);
  }
  findings = findings.concat(check(f));
}
for (const f of findings) console.log(f);
console.log(`container-workflows: ${files.length} file(s), ${findings.length} finding(s)`);
process.exit(findings.length ? 1 : 0);
