// Runs the question view's own answer functions (script/answer.js) in Node, for the table test
// tests/provide_choice/test_answer_script.py: reads {script, cases: [{state, drafts}]} as JSON on
// stdin, prints [[{submission, refusal}, ...], ...]: what the script would send for each draft,
// and why it would not. The page's words are stood in for by their keys.
import { readFileSync } from "node:fs";
import vm from "node:vm";

const input = JSON.parse(readFileSync(0, "utf-8"));
const context = vm.createContext({ words: () => ({ t: (key) => key }) });
vm.runInContext(`${input.script}\nthis.answer = { submissionFromDraft, refusal };`, context);
const { submissionFromDraft, refusal } = context.answer;
const results = input.cases.map(({ state, drafts }) =>
  drafts.map((draft) => {
    const submission = submissionFromDraft(state, draft);
    return { submission, refusal: refusal(state, submission) };
  }),
);
process.stdout.write(JSON.stringify(results));
