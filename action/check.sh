#!/usr/bin/env bash
# The check step of action.yml, also runnable anywhere with the same INPUT_* variables: runs
# origin-lab check, appends its Markdown summary to the job summary ($GITHUB_STEP_SUMMARY), writes
# the SARIF where the next step uploads it, annotates the expectations file where it failed, and
# puts exit-code, findings and sarif-file in the step's outputs ($GITHUB_OUTPUT). It exits 0 once
# those are written (2 on bad inputs): action.yml's last step ends the job with the check's code.
set -uo pipefail

fail() {
  echo "::error title=origin-lab::$1"
  echo "exit-code=2" >>"${GITHUB_OUTPUT:-/dev/null}"
  exit 2
}
[ -n "${INPUT_URL:-}" ] || fail 'the url input is required'
[ -n "${INPUT_FROM:-}" ] || fail 'the from input is required (your origins, comma-separated)'

work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
summary="$work/origin-lab-summary.md"
json="$work/origin-lab-report.json"
sarif="${INPUT_SARIF_FILE:-origin-lab.sarif}"
rm -f "$summary" "$json"

args=(check "$INPUT_URL" --sarif "$sarif" --markdown "$summary" --json "$json" --color never)
IFS=',' read -ra origins <<<"$INPUT_FROM"
for origin in "${origins[@]}"; do
  origin="${origin// /}"
  [ -n "$origin" ] && args+=(--from "$origin")
done
[ -n "${INPUT_ENGINES:-}" ] && args+=(--engines "$INPUT_ENGINES")
[ -n "${INPUT_EXPECT:-}" ] && args+=(--expect "$INPUT_EXPECT")
[ -n "${INPUT_FAIL_ON:-}" ] && args+=(--fail-on "$INPUT_FAIL_ON")
[ -n "${INPUT_STACK:-}" ] && args+=(--stack "$INPUT_STACK")
# More options as on a command line: split on spaces, no shell expansion.
read -ra extra <<<"${INPUT_ARGS:-}"
read -ra command <<<"${INPUT_COMMAND:-npx --yes origin-lab}"

"${command[@]}" "${args[@]}" "${extra[@]}"
code=$?

if [ -s "$summary" ]; then cat "$summary" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"; fi
if [ -s "$json" ]; then
  # One annotation per finding at or above medium, and one per failed expectation on its file's
  # line; then the findings count among the step's outputs.
  EXPECT_FILE="${INPUT_EXPECT:-}" node - "$json" <<'NODE'
const { appendFileSync, readFileSync } = require('node:fs');
const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// GitHub's workflow commands: a message escapes %, CR and LF; a property also : and ,.
const clean = (text) => String(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (text) => clean(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
for (const finding of report.findings)
  if (['critical', 'high', 'medium'].includes(finding.severity))
    console.log(`::${finding.severity === 'medium' ? 'warning' : 'error'} title=${prop(`origin-lab: ${finding.title}`)}::${clean(finding.detail)}`);
const file = process.env.EXPECT_FILE;
if (file && report.expectations) {
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const result of report.expectations.filter((r) => !r.holds)) {
    // The line that names the origin the expectation is about, or othersDenied; else the first.
    const origin = /https?:\/\/[^\s,;)]+/.exec(result.description)?.[0];
    const key = result.id.startsWith('deny:') ? '"othersDenied"' : origin;
    const line = Math.max(1, lines.findIndex((text) => key && text.includes(key)) + 1);
    const what = `${result.description}: ${result.failures.slice(0, 3).join('; ')}`;
    console.log(`::error file=${prop(file)},line=${line},title=${prop('origin-lab expectation')}::${clean(what)}`);
  }
}
if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `findings=${report.findings.length}\n`);
NODE
fi
{
  echo "exit-code=$code"
  [ -s "$sarif" ] && echo "sarif-file=$sarif"
} >>"${GITHUB_OUTPUT:-/dev/null}"
exit 0
