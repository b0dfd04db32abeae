// Runs the pages' words.js in Node, for tests/provide_choice/test_page_words.py: reads {script,
// catalogs, tags} as JSON on stdin, prints the language languageFor picks for each tag (the app
// views pick the host's so, before the server says the person's).
import { readFileSync } from "node:fs";
import vm from "node:vm";

const input = JSON.parse(readFileSync(0, "utf-8"));
const document = {
  getElementById: () => ({ textContent: JSON.stringify(input.catalogs) }),
  documentElement: { lang: "en" },
  querySelectorAll: () => [],
};
const context = vm.createContext({ document, Intl });
vm.runInContext(`${input.script}\nthis.languageFor = languageFor;`, context);
process.stdout.write(JSON.stringify(input.tags.map((tag) => context.languageFor([tag]))));
