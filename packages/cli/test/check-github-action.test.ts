import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expressReflectingAll, YOURS } from './fixtures.js';
import { ENGINES, oneEngineName, PROGRAM } from './run-check.js';

// The GitHub Action (action.yml) as a runner runs it: its check step's script with the inputs as
// GitHub passes them (INPUT_* in the step's env) and GitHub's files for the job summary and the
// step's outputs. Expectations written from GitHub's documented workflow commands and outputs.

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-action-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: { id?: string; run?: string; uses?: string; env?: Record<string, string> }[] };
}

describe('action.yml', () => {
  it("passes every input to the check step, uploads the SARIF, and ends with the check's exit code", () => {
    const action = parse(readFileSync(join(repo, 'action.yml'), 'utf8')) as Action;
    expect(action.runs.using).toBe('composite');
    const [check, upload, end] = action.runs.steps;
    expect(check!.run).toBe('bash "$GITHUB_ACTION_PATH/action/check.sh"');
    const passed = Object.entries(check!.env ?? {});
    for (const name of Object.keys(action.inputs).filter((input) => input !== 'upload-sarif'))
      expect(passed, name).toContainEqual([`INPUT_${name.toUpperCase().replace(/-/g, '_')}`, `\${{ inputs.${name} }}`]);
    expect(upload!.uses).toMatch(/^github\/codeql-action\/upload-sarif@v\d+$/);
    expect(end!.run).toContain('steps.check.outputs.exit-code');
  });
});

describe.skipIf(ENGINES.length === 0)('the action, its check step run as a GitHub runner runs it', () => {
  it('a server that lets any origin read with credentials: job summary, SARIF, annotations, outputs, exit code 1', async () => {
    const server = await expressReflectingAll();
    const summary = join(scratch, 'summary.md');
    const outputs = join(scratch, 'outputs');
    const sarif = join(scratch, 'cors.sarif');
    const expectations = join(scratch, 'origin-lab.check.json');
    writeFileSync(summary, '');
    writeFileSync(outputs, '');
    writeFileSync(
      expectations,
      `{\n  "allow": [\n    { "origin": "${YOURS}", "credentials": true }\n  ],\n  "othersDenied": true\n}\n`,
    );
    try {
      const ran = await new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(
          'bash',
          [join(repo, 'action/check.sh')],
          {
            timeout: 180_000,
            env: {
              ...process.env,
              GITHUB_STEP_SUMMARY: summary,
              GITHUB_OUTPUT: outputs,
              RUNNER_TEMP: scratch,
              INPUT_URL: server.url,
              INPUT_FROM: YOURS,
              INPUT_ENGINES: oneEngineName('chromium'),
              INPUT_EXPECT: expectations,
              INPUT_FAIL_ON: 'medium',
              INPUT_STACK: 'express',
              INPUT_ARGS: '--hostile arbitrary --local-network public --quiet',
              INPUT_SARIF_FILE: sarif,
              INPUT_COMMAND: `${process.execPath} ${PROGRAM}`,
            },
          },
          (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
        ),
      );
      expect(ran.code).toBe(0);
      const written = Object.fromEntries(
        readFileSync(outputs, 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split('=') as [string, string]),
      );
      expect(written).toEqual({ 'exit-code': '1', findings: '1', 'sarif-file': sarif });

      const markdown = readFileSync(summary, 'utf8');
      expect(markdown).toMatch(
        /^## origin-lab check: `http:\/\/127\.0\.0\.1:\d+\/me`\n\n\*\*FAIL 1 high \(exit 1\)\*\*/,
      );
      expect(markdown).toContain(`### From \`${YOURS}\``);
      expect(markdown).toMatch(/\| Request \| (Chromium|Firefox|WebKit)[^|]* \|\n\|---\|---\|/);
      expect(markdown).toContain('#### 🔴 HIGH: Origins you did not name read your API with the user’s credentials');
      expect(markdown).toContain('- **Express (cors):** cors({ origin: ["http://app.example.test"] })');
      expect(markdown).toContain('### Expectations: 1 of 2 hold');

      const report = JSON.parse(readFileSync(sarif, 'utf8')) as { runs: { results: unknown[] }[] };
      expect(report.runs[0]!.results).toHaveLength(1);

      // Workflow commands: the finding as an error, the failed expectation on its file's line (5).
      expect(ran.stdout).toContain(
        '::error title=origin-lab%3A Origins you did not name read your API with the user’s credentials::',
      );
      expect(ran.stdout).toMatch(
        new RegExp(
          `^::error file=${expectations.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=5,title=origin-lab expectation::no other origin reads`,
          'm',
        ),
      );
    } finally {
      await server.stop();
    }
  }, 240_000);

  it('without a url or from: an error annotation, exit-code 2, and the step itself exits 2', async () => {
    const outputs = join(scratch, 'outputs-bad');
    writeFileSync(outputs, '');
    const ran = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        'bash',
        [join(repo, 'action/check.sh')],
        { env: { ...process.env, GITHUB_OUTPUT: outputs, INPUT_URL: 'https://api.example.com/me', INPUT_FROM: '' } },
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
      ),
    );
    expect(ran.stdout).toBe('::error title=origin-lab::the from input is required (your origins, comma-separated)\n');
    expect(readFileSync(outputs, 'utf8')).toBe('exit-code=2\n');
    expect(ran.code).toBe(2);
  });
});
